import { isUtf8 } from 'node:buffer';

/**
 * A file name as text. One that is not UTF-8 is shown with its bytes beyond ASCII as \xHH and a
 * backslash doubled: two such names never show (or key) as one, as they would decoded with U+FFFD.
 */
export function fileNameText(name: Buffer): string {
  return isUtf8(name) ? name.toString('utf8') : escapedName(name);
}

export function escapedName(name: Buffer): string {
  return [...name].map((b) => (b === 0x5c ? '\\\\' : b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}
