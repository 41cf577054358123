// Fitting a table to a width by wrapping its cells, as psql's `wrapped` format does: nothing is
// ever cut (a cut cell's `...` could not be told from data, and `trajaudit queries` is read for
// its descriptions' exact rules). Widths are display columns (a CJK character takes two), counted
// by string-width as table.ts pads them, so a wrapped line never overflows its column.
import stringWidth from 'string-width';

/** table.ts's frame: `│ a │ b │` takes 3 columns per column, plus 1. */
const frame = (columns: number) => 3 * columns + 1;

/** A column is narrowed to its longest word, up to this (a timestamp, an id), or its header. */
const LONGEST_KEPT_WORD = 24;

const widthOf = (text: string) => Math.max(0, ...text.split('\n').map((line) => stringWidth(line)));
const longestWord = (text: string) => Math.max(0, ...text.split(/[ \n]/).map((word) => stringWidth(word)));
/** A header may wrap after its underscores too (`untagged_` / `chunks`): its longest such piece. */
const longestHeaderPiece = (text: string) => Math.max(1, ...text.split(/[ \n]|(?<=_)/).map((piece) => stringWidth(piece)));

/**
 * Column widths that fit `total` when the table is wider. Each column keeps at least the longest
 * piece of its header (broken at spaces and after underscores) and its longest word (up to LONGEST_KEPT_WORD), and the rest is shared in proportion to what
 * each column lacks: a row is then about as many lines tall in its long columns as in its short
 * ones. Where even those floors do not fit the table is wider than `total`; nothing is cut.
 */
export function fitColumns(head: string[], rows: string[][], total: number): number[] {
  const natural = head.map((h, c) => Math.max(widthOf(h), ...rows.map((row) => widthOf(row[c]))));
  const budget = total - frame(head.length);
  if (natural.reduce((a, b) => a + b, 0) <= budget) return natural;
  const floors = head.map((h, c) => Math.min(natural[c], Math.max(longestHeaderPiece(h), Math.min(LONGEST_KEPT_WORD, Math.max(0, ...rows.map((row) => longestWord(row[c])))), 1)));
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
  const add = (part: string) => {
    const last = pieces[pieces.length - 1];
    if (last !== '' && stringWidth(last + part) > width) pieces.push(part);
    else pieces[pieces.length - 1] = last + part;
  };
  for (const part of word.split(/(?<=[,_])/)) {
    if (stringWidth(part) <= width) add(part);
    else for (const { segment } of new Intl.Segmenter().segment(part)) add(segment);
  }
  return pieces;
}
