// Node's line splitter, for what DuckDB's line reader refuses or gets wrong (CRLF, invalid UTF-8,
// stray control bytes, a line longer than its buffer, a byte order mark): the file's lines go into TEMP TABLE
// node_lines(line_no, line, len), read in chunks (raw-lines.ts), never the whole file at once.
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/database.js';
import { literalPath } from '../db/literal-path.js';
import { makeTempDir, removeTempDir } from '../temp-dirs.js';
import { decodeLossy, invalidUtf8Reason } from './decode-utf8.js';
import { BOM_BYTES, overlongLine, startsWithBom } from './line-rules.js';
import { rawLines } from './raw-lines.js';
import { excerpt } from './strict-json.js';

/** A line judged before DuckDB sees it (not UTF-8, or too long to read): its row has no text. */
export interface Unread {
  reason: string;
  excerpt: string;
}

/**
 * Lines up to this go to DuckDB through one NDJSON file; a longer one is bound as a value. In the
 * file its record (up to six times the line, escaped) would need read_json buffers of twice that
 * (a 17 MB line ran out of a 192 MB pool).
 */
const WRAP_BYTES = 1024 * 1024;
const FLUSH_BYTES = 4 * 1024 * 1024;

// ignoreBOM: a U+FEFF that starts a line stays in its text (only the file's own BOM is passed over).
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Splits the file from `start` into TEMP TABLE node_lines, numbering lines from lineBase + 1, and
 * returns the lines it could not hand over as text.
 */
export async function splitLines(db: Database, absPath: string, start: number, lineBase: number): Promise<Map<number, Unread>> {
  const unread = new Map<number, Unread>();
  await db.run('CREATE OR REPLACE TEMP TABLE node_lines (line_no BIGINT, line VARCHAR, len BIGINT)');
  const dir = makeTempDir('trajaudit-');
  try {
    const wrapped = path.join(dir, 'lines.jsonl');
    const out = fs.openSync(wrapped, 'w');
    try {
      let pending: string[] = [];
      let pendingBytes = 0;
      let n = lineBase;
      for (const line of rawLines(absPath, start)) {
        n += 1;
        const { length } = line;
        const skip = start === 0 && n === 1 && startsWithBom(line.head) ? BOM_BYTES : 0;
        const head = line.head.subarray(skip);
        const bytes = line.bytes?.subarray(skip) ?? null;
        let text: string | null = null;
        if (bytes === null) unread.set(n, overlongLine(length, head));
        else {
          try {
            text = fatalUtf8.decode(bytes);
          } catch {
            const lossy = decodeLossy(bytes);
            unread.set(n, { reason: invalidUtf8Reason(lossy.badByte ?? 0), excerpt: excerpt(lossy.text) });
          }
        }
        if (text !== null && length > WRAP_BYTES) {
          await db.runPositional('INSERT INTO node_lines VALUES (?, ?, ?)', [n, text, length]);
          continue;
        }
        const record = JSON.stringify({ n, line: text, len: length });
        pending.push(record);
        pendingBytes += record.length;
        if (pendingBytes >= FLUSH_BYTES) {
          fs.writeSync(out, `${pending.join('\n')}\n`);
          pending = [];
          pendingBytes = 0;
        }
      }
      if (pending.length) fs.writeSync(out, `${pending.join('\n')}\n`);
    } finally {
      fs.closeSync(out);
    }
    await db.run(
      `INSERT INTO node_lines SELECT n, line, len FROM read_json($src, format='newline_delimited', columns={n: 'BIGINT', line: 'VARCHAR', len: 'BIGINT'})`,
      { src: literalPath(wrapped) },
    );
  } finally {
    removeTempDir(dir);
  }
  return unread;
}
