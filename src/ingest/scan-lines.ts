// One pass of Node over a JSONL file's bytes, beside DuckDB's read_json (load-jsonl-direct.ts):
// counts lines, finds blank lines, and judges with the strict parser every line whose verdict
// DuckDB's lenient reader could get wrong. The bytes are read into a WebAssembly scanner's
// memory (line-scanner.ts), which finds the newlines and the doubtful places.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { MAX_LINE_BYTES, startsWithBom } from './line-rules.js';
import { decodeLossy, invalidUtf8Reason } from './decode-utf8.js';
import { duplicateKeyReason, duplicateTopLevelKeys } from './duplicate-keys.js';
import { LineScanner } from './line-scanner.js';
import { Refused } from './refused.js';
import { excerpt, strictJsonObject } from './strict-json.js';

/** The file cannot take the direct path (a line longer than MAX_LINE_BYTES, invalid UTF-8, a byte order mark). */
const refuse = (reason: string) => new Refused('before-reading', reason);

export interface ScannedProblem {
  offset: number;
  reason: string;
  excerpt: string;
}

export interface LineScan {
  /** Every line, an unterminated last one included. */
  lines: number;
  bytes: number;
  /** The file ends with a newline (or is empty). */
  terminated: boolean;
  /** Byte offset where the last line starts. */
  lastLineStart: number;
  /** 1-based numbers of lines holding nothing but spaces, tabs and carriage returns. */
  blank: number[];
  /** Lines the strict parser rejected, by line number. */
  malformed: Map<number, ScannedProblem>;
  /** Valid lines naming a top-level key twice (duplicate-keys.ts; found where one of the keys is twice), by line number. */
  duplicates: Map<number, ScannedProblem>;
  /** Byte offset of line 1, 1 + CHECKPOINT_EVERY, …: where lineBytes starts counting. */
  checkpoints: number[];
}

const CHECKPOINT_EVERY = 256;
// 1 MiB chunks: larger ones keep tens of MB of buffers and strings alive during a load.
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 10;

/** Scanners with the default buffer, kept for the next file (a grown one is let go). */
const idle: LineScanner[] = [];

// ignoreBOM: a U+FEFF that starts a line stays in its text, and fails it (line-rules.ts).
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The strict verdict on one line's bytes: null when it is exactly one JSON object. */
export function judgeLine(bytes: Uint8Array): { reason: string; excerpt: string } | null {
  let text: string;
  try {
    text = fatalUtf8.decode(bytes);
  } catch {
    const { text: lossyText, badByte } = decodeLossy(bytes);
    return { reason: invalidUtf8Reason(badByte ?? 0), excerpt: excerpt(lossyText) };
  }
  const verdict = strictJsonObject(text);
  return verdict.ok ? null : { reason: verdict.reason, excerpt: excerpt(text) };
}

function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) {
    const c = bytes[i];
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/**
 * The scanner's WebAssembly memory, or a refusal when there is none to be had: V8 reserves
 * ~10 GiB of address space for it, which `ulimit -v` (shared login nodes, batch schedulers)
 * denies, and `--jitless` has no WebAssembly at all. The staged reader then reads every file.
 */
function withWasm<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof RangeError || error instanceof ReferenceError || (error instanceof Error && /WebAssembly|Wasm/.test(error.message))) {
      throw refuse(`no WebAssembly memory for the line scanner (${error.message})`);
    }
    throw error;
  }
}

const newScanner = (capacity: number) => withWasm(() => new LineScanner(capacity));

export interface ScanOptions {
  /** Bytes read at a time; small in tests, to cross chunk boundaries. */
  chunkBytes?: number;
  /** The buffer grows for a longer line; a line longer than this refuses the file (the staged reader lists it). */
  maxLineBytes?: number;
  /** The envelope keys whose values are stored: a valid line naming one twice is listed (duplicate-keys.ts). */
  keys?: string[];
}

/** The file's lines, or why the direct path cannot take it. */
export async function scanLines(absPath: string, options: ScanOptions = {}): Promise<LineScan | Refused> {
  try {
    return await scanFile(absPath, options);
  } catch (error) {
    if (error instanceof Refused) return error;
    throw error;
  }
}

async function scanFile(absPath: string, { chunkBytes = CHUNK_BYTES, maxLineBytes = MAX_LINE_BYTES, keys = [] }: ScanOptions): Promise<LineScan> {
  const scan: LineScan = { lines: 0, bytes: 0, terminated: true, lastLineStart: 0, blank: [], malformed: new Map(), duplicates: new Map(), checkpoints: [] };
  const scanner = (chunkBytes === CHUNK_BYTES && idle.pop()) || newScanner(chunkBytes);
  scanner.setKeys(keys);
  const file = await fs.promises.open(absPath, 'r');
  try {
    let carry = 0;
    let base = 0; // file offset of bytes[0]
    for (;;) {
      const { bytesRead } = await file.read(scanner.bytes, carry, scanner.capacity - carry, base + carry);
      const end = carry + bytesRead;
      if (end === 0) break;
      const atEof = bytesRead === 0;
      const cut = atEof ? end : scanner.bytes.lastIndexOf(NEWLINE, end - 1) + 1;
      if (cut === 0) {
        if (end === scanner.capacity) {
          if (scanner.capacity > maxLineBytes) throw refuse(`a line longer than ${maxLineBytes} bytes`);
          withWasm(() => scanner.grow(Math.min(maxLineBytes + 1, scanner.capacity * 2))); // the line and its newline
        }
        carry = end;
        continue;
      }
      if (!isUtf8(scanner.bytes.subarray(0, cut))) throw refuse('invalid UTF-8');
      // read_json passes over a byte order mark, but not always: a first line of nothing else
      // comes as a row of its own, one unterminated line after it as a NULL row.
      if (base === 0 && startsWithBom(scanner.bytes)) throw refuse('a byte order mark');
      scanChunk(scan, scanner, cut, base, maxLineBytes);
      if (atEof) {
        scan.terminated = scanner.bytes[cut - 1] === NEWLINE;
        break;
      }
      scanner.bytes.copy(scanner.bytes, 0, cut, end);
      base += cut;
      carry = end - cut;
    }
  } finally {
    await file.close();
    if (scanner.capacity === CHUNK_BYTES) idle.push(scanner);
  }
  return scan;
}

function scanChunk(scan: LineScan, scanner: LineScanner, length: number, base: number, maxLine: number): void {
  const { bytes } = scanner;
  const flagged: [number, number, number][] = [];
  let start = 0;
  let suspect = false;
  const line = (end: number) => {
    if (end - start > maxLine) throw refuse(`a line longer than ${maxLine} bytes`);
    scan.lines += 1;
    const lineNo = scan.lines;
    if (lineNo % CHECKPOINT_EVERY === 1) scan.checkpoints.push(base + start);
    scan.lastLineStart = base + start;
    let last = end - 1;
    if (last >= start && bytes[last] === 13) last -= 1;
    // Only '{' … '}' lines can be left to DuckDB: it also trims \f and \v around a line.
    if (suspect || last < start || bytes[start] !== 123 || bytes[last] !== 125) {
      if (isBlank(bytes, start, end)) scan.blank.push(lineNo);
      else flagged.push([lineNo, start, end]);
    }
    start = end + 1;
    suspect = false;
  };
  scanner.scan(length, line, () => {
    suspect = true;
  });
  if (start < length) line(length); // an unterminated last line
  for (const [lineNo, from, end] of flagged) {
    const problem = judgeLine(bytes.subarray(from, end));
    if (problem) {
      scan.malformed.set(lineNo, { offset: base + from, ...problem });
      continue;
    }
    // Valid: flagged for a key named twice perhaps (line-scanner.wat).
    const text = bytes.toString('utf8', from, bytes[end - 1] === 13 ? end - 1 : end);
    const twice = duplicateTopLevelKeys(text);
    if (twice.length > 0) scan.duplicates.set(lineNo, { offset: base + from, reason: duplicateKeyReason(twice), excerpt: excerpt(text) });
  }
  scan.bytes += length;
}

/** Rows in a chunk of DuckDB's vectorized execution (its vector size). */
export const DUCKDB_CHUNK_ROWS = 2048;

/**
 * At least the bytes of the densest run of DUCKDB_CHUNK_ROWS lines, from the checkpoints: a run
 * starting between two checkpoints lies within the checkpoints around it.
 */
export function densestChunkBytes(scan: LineScan): number {
  const span = DUCKDB_CHUNK_ROWS / CHECKPOINT_EVERY + 1;
  let densest = 0;
  for (let i = 0; i < scan.checkpoints.length; i += 1) densest = Math.max(densest, (scan.checkpoints[i + span] ?? scan.bytes) - scan.checkpoints[i]);
  return densest;
}

/** One line (without its newline) and its byte offset, found from the nearest checkpoint. */
export function lineBytes(absPath: string, scan: LineScan, lineNo: number): { offset: number; bytes: Buffer } {
  const index = Math.floor((lineNo - 1) / CHECKPOINT_EVERY);
  let skip = lineNo - 1 - index * CHECKPOINT_EVERY;
  let position = scan.checkpoints[index];
  let start = skip === 0 ? position : -1;
  const parts: Buffer[] = [];
  const window = Buffer.allocUnsafe(1 << 20);
  const fd = fs.openSync(absPath, 'r');
  try {
    for (let n = fs.readSync(fd, window, 0, window.length, position); n > 0; position += n, n = fs.readSync(fd, window, 0, window.length, position)) {
      const view = window.subarray(0, n);
      let from = 0;
      for (; skip > 0; skip -= 1) {
        const nl = view.indexOf(NEWLINE, from);
        if (nl === -1) break;
        from = nl + 1;
      }
      if (skip > 0) continue;
      if (start === -1) start = position + from;
      const nl = view.indexOf(NEWLINE, from);
      parts.push(Buffer.from(view.subarray(from, nl === -1 ? n : nl)));
      if (nl !== -1) break;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { offset: start, bytes: Buffer.concat(parts) };
}
