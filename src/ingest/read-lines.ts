import { isUtf8 } from 'node:buffer';
import { decodeLossy } from './decode-utf8.js';
import { BOM_BYTES, overlongLine, startsWithBom } from './line-rules.js';
import { rawLines } from './raw-lines.js';

export interface TextLine {
  /** 1-based. */
  number: number;
  byteOffset: number;
  /** The line without its newline or one CR before it; bad UTF-8 bytes as U+FFFD; '' for a line too long to read. */
  text: string;
  /** False only for an unterminated last line. */
  terminated: boolean;
  /** Nothing but spaces, tabs and CRs: the JSONL readers' rule (scan-lines.ts), so one rule in every kind. */
  blank: boolean;
  /** Offset in the line of its first byte that is not UTF-8; null when the line decodes. */
  badByte: number | null;
  /** Why a line longer than MAX_LINE_BYTES is not read, and its excerpt. */
  unread?: { reason: string; excerpt: string };
}

/** Splits a small text file into lines, keeping offsets; for formats parsed in Node (warn.log). */
export function readLines(absPath: string): { lines: TextLine[]; bytes: number } {
  const lines: TextLine[] = [];
  let offset = 0;
  for (const { bytes, length, head, terminated } of rawLines(absPath)) {
    const line: TextLine = { number: lines.length + 1, byteOffset: offset, text: '', terminated, blank: false, badByte: null };
    const skip = offset === 0 && startsWithBom(head) ? BOM_BYTES : 0;
    if (bytes === null) line.unread = overlongLine(length, head.subarray(skip));
    else {
      const body = bytes.subarray(skip);
      const decoded = isUtf8(body) ? { text: body.toString('utf8'), badByte: null } : decodeLossy(body);
      line.text = decoded.text.replace(/\r$/, '');
      line.badByte = decoded.badByte === null ? null : decoded.badByte + skip;
      line.blank = /^[ \t\r]*$/.test(line.text);
    }
    lines.push(line);
    offset += length + (terminated ? 1 : 0);
  }
  return { lines, bytes: offset };
}
