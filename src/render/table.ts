// The table format: a box around every cell, numbers right-aligned, NULL as `NULL`. With a width
// (the terminal's, or $COLUMNS) it fits it: free-text cells are cut with `…` and headers wrap
// after their underscores; when ids, paths, times and numbers alone are wider, each row is a block
// of `column | value` lines instead (expanded.ts). Drawn here rather than by cli-table3, whose
// drawing is quadratic in a cell's length; the frame and padding are the ones it drew.
import stringWidth from 'string-width';
import { columnKinds } from './column-kind.js';
import { constantColumns, constantNote } from './constant-columns.js';
import { cut } from './cut-text.js';
import { renderExpanded } from './expanded.js';
import { columnNeeds, fitColumns } from './fit-columns.js';
import { dim, type ShownCell, shownCell, terminalText } from './table-cell.js';
import type { RenderOptions, Tabular } from './types.js';
import { wrapText } from './wrap-text.js';

const lines = (text: string) => text.split('\n');

export default function renderTable(t: Tabular, options: RenderOptions = {}): string {
  // No rows still shows the columns, as psql does: what the answer would have held.
  if (t.columns.length === 0) return `(no rows)\n`;
  const folded = options.foldConstantColumns ? constantColumns(t) : [];
  const columns = t.columns.filter((c) => !folded.includes(c));
  const shown = { ...t, columns };
  const kinds = columnKinds(shown);
  const head = columns.map(terminalText);
  const rows = t.rows.map((row) => columns.map((c) => shownCell(row[c])));
  const needs = columns.map((_, c) => columnNeeds(kinds[c], head[c], rows.map((cells) => cells[c].text)));
  const widths = options.width === undefined ? needs.map((n) => Math.max(n.header, n.cells)) : fitColumns(needs, options.width);
  const body = widths === null
    ? renderExpanded(columns.map((c) => terminalText(c).replace(/\n/g, '\\u000a')), kinds, rows, options)
    : box(head.map((h, c) => wrapText(h, widths[c])), rows.map((cells) => cells.map((cell, c) => fitCell(cell, kinds[c] === 'text', widths[c]))), widths, kinds.map((k) => k === 'number'), options.color);
  const count = `(${t.rows.length} row${t.rows.length === 1 ? '' : 's'})`;
  const note = folded.length > 0 ? constantNote(t, folded, options.width, options.color) : [];
  return `${[...body, count, ...note].join('\n')}\n`;
}

/** A free-text cell's lines cut to the column; any other cell fits it already (fit-columns.ts). */
function fitCell(cell: ShownCell, isText: boolean, width: number): ShownCell {
  return isText && !cell.isNull ? { ...cell, text: lines(cell.text).map((line) => cut(line, width)).join('\n') } : cell;
}

function box(head: string[], rows: ShownCell[][], widths: number[], right: boolean[], color?: boolean): string[] {
  const rule = (left: string, mid: string, end: string) => `${left}${widths.map((w) => '─'.repeat(w + 2)).join(mid)}${end}`;
  const draw = (cells: ShownCell[]) => {
    const split = cells.map((cell) => lines(cell.text));
    const height = split.reduce((most, l) => Math.max(most, l.length), 0);
    return Array.from({ length: height }, (_, i) =>
      `│${split.map((l, c) => {
        const text = l[i] ?? '';
        const pad = ' '.repeat(widths[c] - stringWidth(text));
        const painted = cells[c].isNull && color ? dim(text) : text;
        return ` ${right[c] ? pad + painted : painted + pad} `;
      }).join('│')}│`);
  };
  const header = draw(head.map((text) => ({ text, isNull: false })));
  return [rule('┌', '┬', '┐'), ...header, rule('├', '┼', '┤'), ...rows.flatMap(draw), rule('└', '┴', '┘')];
}
