// A file's lines as bytes, read in chunks: memory is bounded by the longest line held, and a
// line longer than the limit is passed over (only its first bytes are kept, for its excerpt).
import fs from 'node:fs';
import { EXCERPT_BYTES, MAX_LINE_BYTES } from './line-rules.js';

export interface RawLine {
  /** The line without its newline; null for a line longer than the limit. */
  bytes: Buffer | null;
  length: number;
  /** The first EXCERPT_BYTES bytes (all a line too long to hold keeps). */
  head: Buffer;
  terminated: boolean;
}

const CHUNK_BYTES = 1024 * 1024;

/** The lines of a file from `start`; a line's bytes are valid until the next line is asked for. */
export function* rawLines(absPath: string, start = 0, maxLine = MAX_LINE_BYTES): Generator<RawLine> {
  const fd = fs.openSync(absPath, 'r');
  try {
    // No bigger than the file: a 1 MiB buffer for each of thousands of small files holds tens of
    // MB more until V8 collects them.
    let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK_BYTES, maxLine + 1, fs.fstatSync(fd).size - start + 1)));
    let begin = 0; // the current line starts at buffer[begin]
    let end = 0; // the bytes read so far end at buffer[end]
    let searched = 0; // buffer[begin, searched) holds no newline
    let passed: { length: number; head: Buffer } | null = null; // a line too long, being passed over
    const line = (to: number, terminated: boolean): RawLine => {
      if (passed) return { bytes: null, length: passed.length + to - begin, head: passed.head, terminated };
      const bytes = buffer.subarray(begin, to);
      const head = bytes.subarray(0, EXCERPT_BYTES);
      return bytes.length > maxLine ? { bytes: null, length: bytes.length, head: Buffer.from(head), terminated } : { bytes, length: bytes.length, head, terminated };
    };
    for (let position = start; ;) {
      const newline = buffer.subarray(0, end).indexOf(10, searched);
      if (newline !== -1) {
        yield line(newline, true);
        passed = null;
        begin = searched = newline + 1;
        continue;
      }
      if (!passed && end - begin > maxLine) passed = { length: 0, head: Buffer.from(buffer.subarray(begin, begin + EXCERPT_BYTES)) };
      if (passed) {
        passed.length += end - begin;
        begin = end = 0;
      } else if (begin > 0) {
        buffer.copy(buffer, 0, begin, end);
        end -= begin;
        begin = 0;
      }
      // Room for the longest line held and its newline, grown as a line needs it.
      if (end === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, maxLine + 1 + CHUNK_BYTES - buffer.length))]);
      searched = end;
      const read = fs.readSync(fd, buffer, end, buffer.length - end, position);
      if (read === 0) {
        if (end > begin || passed) yield line(end, false);
        return;
      }
      position += read;
      end += read;
    }
  } finally {
    fs.closeSync(fd);
  }
}
