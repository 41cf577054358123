// The number of lines in a file from a byte offset, counted by its '\n' bytes alone: what a
// reader's rows must add up to (DuckDB's read_csv sometimes ends a row at a lone '\r').
import fs from 'node:fs/promises';

const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 10;

export interface LineCount {
  /** One per '\n', plus an unterminated last line. */
  lines: number;
  /** The range ends with '\n' (or is empty). */
  terminated: boolean;
}

/**
 * The lines from `start`, read in chunks, never held whole. Asynchronous so that it runs while
 * DuckDB reads the same file, hidden behind DuckDB's far longer read.
 */
export async function countLines(absPath: string, start = 0): Promise<LineCount> {
  const file = await fs.open(absPath, 'r');
  try {
    const chunk = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK_BYTES, (await file.stat()).size - start)));
    let lines = 0;
    let last = NEWLINE; // the last byte read: an empty range has no line
    for (let position = start, n; (n = (await file.read(chunk, 0, chunk.length, position)).bytesRead) > 0; position += n) {
      for (let at = chunk.indexOf(NEWLINE); at !== -1 && at < n; at = chunk.indexOf(NEWLINE, at + 1)) lines += 1;
      last = chunk[n - 1];
    }
    return last === NEWLINE ? { lines, terminated: true } : { lines: lines + 1, terminated: false };
  } finally {
    await file.close();
  }
}
