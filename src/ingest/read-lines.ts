import fs from 'node:fs';

export interface TextLine {
  /** 1-based. */
  number: number;
  byteOffset: number;
  text: string;
  /** False only for an unterminated last line. */
  terminated: boolean;
}

/** Splits a small text file into lines, keeping offsets; for formats parsed in Node (warn.log). */
export function readLines(absPath: string): { lines: TextLine[]; bytes: number } {
  const bytes = fs.readFileSync(absPath);
  const lines: TextLine[] = [];
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(10, start);
    const end = newline === -1 ? bytes.length : newline;
    lines.push({ number: lines.length + 1, byteOffset: start, text: bytes.toString('utf8', start, end).replace(/\r$/, ''), terminated: newline !== -1 });
    start = end + 1;
  }
  return { lines, bytes: bytes.length };
}
