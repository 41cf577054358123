import { BOM_BYTES, overlongLine, startsWithBom } from './line-rules.js';
import { rawLines } from './raw-lines.js';

export interface TextLine {
  /** 1-based. */
  number: number;
  byteOffset: number;
  /** The line's text; '' for a line too long to read. */
  text: string;
  /** False only for an unterminated last line. */
  terminated: boolean;
  /** Why a line longer than MAX_LINE_BYTES is not read, and its excerpt. */
  unread?: { reason: string; excerpt: string };
}

/** Splits a small text file into lines, keeping offsets; for formats parsed in Node (warn.log). */
export function readLines(absPath: string): { lines: TextLine[]; bytes: number } {
  const lines: TextLine[] = [];
  let offset = 0;
  for (const { bytes, length, head, terminated } of rawLines(absPath)) {
    const line: TextLine = { number: lines.length + 1, byteOffset: offset, text: '', terminated };
    const skip = offset === 0 && startsWithBom(head) ? BOM_BYTES : 0;
    if (bytes === null) line.unread = overlongLine(length, head.subarray(skip));
    else line.text = bytes.toString('utf8', skip).replace(/\r$/, '');
    lines.push(line);
    offset += length + (terminated ? 1 : 0);
  }
  return { lines, bytes: offset };
}
