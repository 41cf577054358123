// Cutting one line of text to a width with `…`: what the name list and the table's free-text
// columns do with a text too long for their room (the full value is in --format json and md).
import stringWidth from 'string-width';
import { graphemes } from './graphemes.js';

/** UTF-16 units read per column of room: an emoji with its modifiers takes some 4 per column. */
const PREFIX_UNITS_PER_COLUMN = 8;

/** `text` in at most `room` columns: whole when it fits, else up to a space (or anywhere, in a long word) and `…`. */
export function cut(text: string, room: number): string {
  if (stringWidth(text) <= room) return text;
  if (room < 1) return '';
  let kept = '';
  let keptWidth = 0;
  // Only the start is segmented: a cell may hold megabytes, and a column holds no more than its room.
  const start = text.slice(0, PREFIX_UNITS_PER_COLUMN * room + 64);
  const segments = Array.from(graphemes(start), (s) => s.segment);
  // The last character of a slice may be cut short (half of a pair, an emoji without its modifier).
  if (start.length < text.length) segments.pop();
  for (const segment of segments) {
    const w = stringWidth(segment);
    if (keptWidth + w > room - 1) break;
    kept += segment;
    keptWidth += w;
  }
  // At a word's end when one ends in the last half, so that no word shows cut in two.
  const space = /\s/.test(text[kept.length] ?? '') ? kept.length : kept.lastIndexOf(' ');
  const atWord = space > kept.length / 2 ? kept.slice(0, space) : kept;
  return `${atWord.replace(/[\s,;:]+$/, '')}…`;
}
