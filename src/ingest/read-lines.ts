import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { decodeLossy } from './decode-utf8.js';

export interface TextLine {
  /** 1-based. */
  number: number;
  byteOffset: number;
  /** The line without its newline or one CR before it; bad UTF-8 bytes as U+FFFD. */
  text: string;
  /** False only for an unterminated last line. */
  terminated: boolean;
  /** Nothing but spaces, tabs and CRs: the JSONL readers' rule (scan-lines.ts), so one rule in every kind. */
  blank: boolean;
  /** Offset in the line of its first byte that is not UTF-8; null when the line decodes. */
  badByte: number | null;
}

/** Splits a small text file into lines, keeping offsets; for formats parsed in Node (warn.log). */
export function readLines(absPath: string): { lines: TextLine[]; bytes: number } {
  const bytes = fs.readFileSync(absPath);
  const utf8 = isUtf8(bytes);
  const lines: TextLine[] = [];
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(10, start);
    const end = newline === -1 ? bytes.length : newline;
    const decoded = utf8 ? { text: bytes.toString('utf8', start, end), badByte: null } : decodeLossy(bytes.subarray(start, end));
    const text = decoded.text.replace(/\r$/, '');
    lines.push({ number: lines.length + 1, byteOffset: start, text, terminated: newline !== -1, blank: /^[ \t\r]*$/.test(text), badByte: decoded.badByte });
    start = end + 1;
  }
  return { lines, bytes: bytes.length };
}
