// The columns that hold one value on every row, for a table that says them once, under it, rather
// than repeat them on each line (timeline: one session's source, agent or index often is).
import stringWidth from 'string-width';
import { cellText } from './cell-text.js';
import { cut } from './cut-text.js';
import { dim, shownCell } from './table-cell.js';
import type { Cell, Tabular } from './types.js';

const LEAD = 'same on every row: ';

/** A value's identity: NULL, '' and the text 'NULL' are three values. */
const key = (v: Cell | undefined) => (v === null || v === undefined ? '\u0000null' : `${typeof v}:${cellText(v)}`);

/** The columns whose value is the same on each of two or more rows; none when that is every column. */
export function constantColumns(t: Tabular): string[] {
  if (t.rows.length < 2) return [];
  const same = t.columns.filter((c) => {
    const first = key(t.rows[0][c]);
    return t.rows.every((row) => key(row[c]) === first);
  });
  return same.length === t.columns.length ? [] : same;
}

/**
 * `same on every row: source=events, agent=NULL`, in lines of at most `width` columns (broken
 * between items); a value is shown on one line, cut with `…` when it alone would be wider.
 */
export function constantNote(t: Tabular, columns: string[], width?: number, color?: boolean): string[] {
  const items = columns.map((c) => {
    const cell = shownCell(t.rows[0][c]);
    const name = shownCell(c).text.replace(/\n/g, ' ');
    const room = width === undefined ? Infinity : Math.max(width - stringWidth(LEAD) - stringWidth(name) - 2, 16);
    const text = cut(cell.text.replace(/\n/g, ' '), room);
    return { plain: `${name}=${text}`, shown: `${name}=${cell.isNull && color ? dim(text) : text}` };
  });
  const lines: string[] = [];
  let line = LEAD.trimEnd();
  let lineWidth = stringWidth(line);
  items.forEach((item, i) => {
    const piece = `${i === 0 ? '' : ','} ${item.plain}`;
    if (i > 0 && width !== undefined && lineWidth + stringWidth(piece) > width) {
      lines.push(`${line},`);
      line = `  ${item.shown}`;
      lineWidth = 2 + stringWidth(item.plain);
    } else {
      line += `${i === 0 ? '' : ','} ${item.shown}`;
      lineWidth += stringWidth(piece);
    }
  });
  lines.push(line);
  return lines;
}
