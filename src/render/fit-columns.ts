// Fitting a table to a width by wrapping its cells, as psql's `wrapped` format does: nothing is
// ever cut (a cut cell's `...` could not be told from data). Widths are display columns (a CJK
// character takes two), counted by string-width as table.ts pads them, so a wrapped line never
// overflows its column.
import stringWidth from 'string-width';

/** table.ts's frame: `│ a │ b │` takes 3 columns per column, plus 1. */
const frame = (columns: number) => 3 * columns + 1;

/** A column is narrowed to its longest word, up to this (a timestamp, an id), or its header. */
const LONGEST_KEPT_WORD = 24;

/** The largest of `values` and `floor`: reduce, not Math.max(...), which a list of some 125,000 values (rows, lines, words) overflows. */
const most = (values: number[], floor: number) => values.reduce((a, b) => Math.max(a, b), floor);
const widthOf = (text: string) => most(text.split('\n').map((line) => stringWidth(line)), 0);
const longestWord = (text: string) => most(text.split(/[ \n]/).map((word) => stringWidth(word)), 0);
/** A header may wrap after its underscores too (`untagged_` / `chunks`): its longest such piece. */
const longestHeaderPiece = (text: string) => most(text.split(/[ \n]|(?<=_)/).map((piece) => stringWidth(piece)), 1);

/**
 * Column widths that fit `total` when the table is wider. Each column keeps at least the longest
 * piece of its header (broken at spaces and after underscores) and its longest word (up to LONGEST_KEPT_WORD), and the rest is shared in proportion to what
 * each column lacks: a row is then about as many lines tall in its long columns as in its short
 * ones. Where even those floors do not fit the table is wider than `total`; nothing is cut.
 */
export function fitColumns(head: string[], rows: string[][], total: number): number[] {
  const natural = head.map((h, c) => most(rows.map((row) => widthOf(row[c])), widthOf(h)));
  const budget = total - frame(head.length);
  if (natural.reduce((a, b) => a + b, 0) <= budget) return natural;
  const floors = head.map((h, c) => Math.min(natural[c], Math.max(longestHeaderPiece(h), Math.min(LONGEST_KEPT_WORD, most(rows.map((row) => longestWord(row[c])), 0)), 1)));
  const lacking = natural.map((n, c) => n - floors[c]);
  const extra = budget - floors.reduce((a, b) => a + b, 0);
  if (extra <= 0) return floors;
  const lackingTotal = lacking.reduce((a, b) => a + b, 0);
  const widths = floors.map((f, c) => f + Math.floor((extra * lacking[c]) / lackingTotal));
  // What rounding down left over goes to the columns that lack the most.
  let left = budget - widths.reduce((a, b) => a + b, 0);
  for (const c of natural.map((_, i) => i).sort((a, b) => lacking[b] - lacking[a])) {
    if (left === 0) break;
    if (widths[c] < natural[c]) {
      widths[c] += 1;
      left -= 1;
    }
  }
  return widths;
}

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

const segmenter = new Intl.Segmenter();
/** Characters of the screen read per call of the segmenter: over a whole long text its iteration is quadratic. */
const SEGMENT_CHUNK = 1024;

/**
 * The characters (grapheme clusters) of `text`, segmented a chunk at a time. A chunk's last
 * cluster may be cut short by the chunk's end, so it is read again at the start of the next chunk.
 */
function* graphemes(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    const chunk = text.slice(start, start + SEGMENT_CHUNK);
    const clusters = Array.from(segmenter.segment(chunk), (s) => s.segment);
    const whole = start + chunk.length >= text.length || clusters.length === 1 ? clusters : clusters.slice(0, -1);
    for (const cluster of whole) {
      yield cluster;
      start += cluster.length;
    }
  }
}
