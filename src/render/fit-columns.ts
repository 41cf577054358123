// Column widths that fit a table to the terminal, or null when it cannot fit and is shown one
// record per block instead (expanded.ts), as psql's `\x auto` does. Numbers and atoms (ids, paths,
// times) keep their whole width; headers may wrap after their underscores; free-text columns
// give way, their cells then cut with `…` (table.ts). Widths are display columns (string-width).
import stringWidth from 'string-width';
import type { ColumnKind } from './column-kind.js';
import { wrapText } from './wrap-text.js';

export interface ColumnNeeds {
  kind: ColumnKind;
  /** The widest line of the header, and the widest piece of it when wrapped at spaces and after underscores. */
  header: number;
  headerPiece: number;
  /** The widest line of the column's cells. */
  cells: number;
  /** The widths, from headerPiece up, at which the wrapped header takes a line fewer than one column less. */
  headerSteps: number[];
}

/** table.ts's frame: `│ a │ b │` takes 3 columns per column, plus 1. */
export const frame = (columns: number) => 3 * columns + 1;

/** A free-text column keeps at least this many columns (or its whole text): fewer would show nothing readable. */
export const TEXT_FLOOR = 16;
/** Free text is given room up to this width before headers are unwrapped, and the rest after. */
const TEXT_COMFORT = 40;

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Each column's width within `total`: every column at its natural width when they fit; else each
 * at its floor (an atom or a number its widest cell, a text column TEXT_FLOOR, a header its widest
 * piece) and the rest shared: to text columns up to TEXT_COMFORT, then to unwrap headers, then to
 * text again. Null when the floors alone are wider than `total`.
 */
export function fitColumns(columns: ColumnNeeds[], total: number): number[] | null {
  const budget = total - frame(columns.length);
  const natural = columns.map((c) => Math.max(c.header, c.cells));
  if (sum(natural) <= budget) return natural;
  const widths = columns.map((c) => Math.max(c.headerPiece, c.kind === 'text' ? Math.min(c.cells, TEXT_FLOOR) : c.cells));
  if (sum(widths) > budget) return null;
  const textWants = (up: number) => columns.map((c, i) => (c.kind === 'text' ? Math.max(0, Math.min(c.cells, up) - widths[i]) : 0));
  let left = share(widths, textWants(TEXT_COMFORT), budget - sum(widths));
  // Then headers: each step makes one a line shorter; the cheapest step first, while they fit.
  for (;;) {
    const steps = columns.map((c, i) => c.headerSteps.find((w) => w > widths[i]) ?? Infinity).map((w, i) => w - widths[i]);
    const i = steps.indexOf(Math.min(...steps));
    if (!(steps[i] <= left)) break;
    left -= steps[i];
    widths[i] += steps[i];
  }
  share(widths, textWants(Infinity), left);
  return widths;
}

/**
 * Gives `room` out to the columns that `want` more, evenly, as water fills a vessel: a column that
 * wants less than its share gets what it wants, and the rest is shared by the others. Adds to
 * `widths` in place, and returns what no column wanted.
 */
export function share(widths: number[], want: number[], room: number): number {
  const order = want.map((_, i) => i).filter((i) => want[i] > 0).sort((a, b) => want[a] - want[b]);
  for (let k = 0; k < order.length && room > 0; k++) {
    const i = order[k];
    const even = Math.max(1, Math.floor(room / (order.length - k)));
    const given = Math.min(want[i], even, room);
    widths[i] += given;
    room -= given;
  }
  return room;
}

const widest = (lines: string[]) => lines.reduce((most, line) => Math.max(most, stringWidth(line)), 0);

/** What a column needs, from its header and its cells' text (a cell may hold several lines). */
export function columnNeeds(kind: ColumnKind, header: string, cells: string[]): ColumnNeeds {
  // A loop, not cells.flatMap: a column can have more lines than an array spread can take.
  let cellWidth = 0;
  for (const cell of cells) cellWidth = Math.max(cellWidth, widest(cell.split('\n')));
  const headerWidth = widest(header.split('\n'));
  const headerPiece = Math.max(1, widest(header.split(/[ \n]|(?<=_)/)));
  const height = (w: number) => wrapText(header, w).split('\n').length;
  const headerSteps: number[] = [];
  for (let w = headerPiece + 1; w <= headerWidth; w++) if (height(w) < height(w - 1)) headerSteps.push(w);
  return { kind, header: headerWidth, headerPiece, cells: cellWidth, headerSteps };
}
