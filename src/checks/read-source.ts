import { readFileSync } from 'node:fs';

/**
 * A source file's text as TypeScript's own reader (ts.sys.readFile) decodes it: UTF-16 by its byte
 * order mark (big- or little-endian), else UTF-8; without the mark, which is no column (line-1
 * columns would be one too high). Read as UTF-8, a UTF-16 file held none of the names the rules
 * look for, so it passed every check unread.
 */
export function readSourceText(absPath: string): string {
  const bytes = readFileSync(absPath);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
    return swapped.swap16().toString('utf16le');
  }
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}
