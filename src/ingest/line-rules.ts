// What counts as a line's bytes and which lines are read at all, the same for every reader.
import { EXCERPT_CHARS, excerpt } from './strict-json.js';

/**
 * The longest line read, in bytes before its newline, in every file; a longer one is listed as a
 * problem and not read. DuckDB's JSON functions take up to eight times a value's size while they
 * parse it, from the 192 MB buffer pool of a file database: a line much longer than this does
 * not fit there.
 */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

/**
 * DuckDB's JSON functions take their memory per chunk of rows (2,048), up to eight times the bytes
 * they parse: a few lines of several MiB in one statement can exhaust the 192 MB pool. A line
 * longer than this is parsed in a statement of its own.
 */
export const BIG_LINE_BYTES = 1024 * 1024;

/** Enough bytes of a line for its excerpt: characters of at most 4 bytes. */
export const EXCERPT_BYTES = 4 * EXCERPT_CHARS;

/**
 * A UTF-8 byte order mark at the very start of a file is ignored, as RFC 8259 §8.1 lets a parser
 * do; its 3 bytes count as bytes of line 1. Anywhere else U+FEFF is a character like any other, and
 * a line that starts with one is not JSON.
 */
export const BOM_BYTES = 3;
export const startsWithBom = (bytes: Uint8Array): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** The problem a line longer than MAX_LINE_BYTES is listed with; `head` is its first bytes. */
export function overlongLine(length: number, head: Uint8Array): { reason: string; excerpt: string } {
  return {
    reason: `line longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB (${length} bytes): not read`,
    excerpt: excerpt(Buffer.from(head.subarray(0, EXCERPT_BYTES)).toString('utf8')),
  };
}
