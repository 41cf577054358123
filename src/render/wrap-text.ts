// Wrapping text to a width: at spaces, and a word longer than the width split after its commas
// or underscores where it can be, else between characters. Widths are display columns (a CJK
// character takes two), counted by string-width.
import stringWidth from 'string-width';
import { graphemes as segmentsOf } from './graphemes.js';

/** `text` in lines of at most `width` columns: broken at spaces, a longer word split where it must be. */
export function wrapText(text: string, width: number): string {
  return text.split('\n').flatMap((line) => wrapLine(line, width)).join('\n');
}

function wrapLine(line: string, width: number): string[] {
  if (stringWidth(line) <= width) return [line];
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (stringWidth(joined) <= width) {
      current = joined;
      continue;
    }
    if (current !== '') lines.push(current);
    current = '';
    for (const piece of splitWord(word, width)) {
      if (current !== '') lines.push(current);
      current = piece;
    }
  }
  lines.push(current);
  return lines;
}

/**
 * A word wider than `width` in pieces of at most `width` columns: after its commas or underscores
 * where it can be (a list such as agent_ids, a column name), else anywhere but inside a character.
 */
function splitWord(word: string, width: number): string[] {
  const pieces = [''];
  // The last piece's width, kept as it grows: parts end between characters, so widths add up.
  let lastWidth = 0;
  const add = (part: string, partWidth: number) => {
    if (lastWidth > 0 && lastWidth + partWidth > width) {
      pieces.push(part);
      lastWidth = partWidth;
    } else {
      pieces[pieces.length - 1] += part;
      lastWidth += partWidth;
    }
  };
  for (const part of word.split(/(?<=[,_])/)) {
    const partWidth = stringWidth(part);
    if (partWidth <= width) add(part, partWidth);
    else for (const segment of graphemes(part)) add(segment, stringWidth(segment));
  }
  return pieces;
}

/** Characters of the screen read per call of the segmenter: over a whole long text its iteration is quadratic. */
const SEGMENT_CHUNK = 1024;

/**
 * The characters (grapheme clusters) of `text`, segmented a chunk at a time. A chunk's last
 * cluster may be cut short by the chunk's end, so it is read again at the start of the next chunk.
 */
function* graphemes(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    const chunk = text.slice(start, start + SEGMENT_CHUNK);
    const clusters = Array.from(segmentsOf(chunk), (s) => s.segment);
    const whole = start + chunk.length >= text.length || clusters.length === 1 ? clusters : clusters.slice(0, -1);
    for (const cluster of whole) {
      yield cluster;
      start += cluster.length;
    }
  }
}
