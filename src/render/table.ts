// The table format: a box around every cell, in full. Drawn here rather than by cli-table3,
// whose drawing measures a cell's whole text again for each of its lines and slices it one
// character at a time (quadratic in a cell's length); the frame and padding are the ones it drew.
import stringWidth from 'string-width';
import { cellText } from './cell-text.js';
import { fitColumns, wrapText } from './fit-columns.js';
import type { RenderOptions, Tabular } from './types.js';
import { visibleText } from './visible-text.js';

/**
 * A cell's text: as visibleText, and a tab as \u0009 too, like the other control characters. The
 * box measures a tab as one column while a terminal expands it to the next tab stop, so a cell
 * holding one would stick out of its border (shell commands and output in payloads hold tabs).
 */
const cellFor = (text: string) => visibleText(text).replace(/\t/g, '\\u0009');

/** Every cell in full; with a width (a terminal's, or $COLUMNS), long cells wrap to fit it. */
export default function renderTable(t: Tabular, options: RenderOptions = {}): string {
  // No rows still shows the columns, as psql does: what the answer would have held.
  if (t.columns.length === 0) return `(no rows)\n`;
  let head = t.columns.map(cellFor);
  let rows = t.rows.map((row) => t.columns.map((c) => cellFor(cellText(row[c]))));
  if (options.width !== undefined) {
    const widths = fitColumns(head, rows, options.width);
    head = head.map((text, c) => wrapText(text, widths[c]));
    rows = rows.map((cells) => cells.map((text, c) => wrapText(text, widths[c])));
  }
  const lines = (text: string) => text.split('\n');
  // Loops, not Math.max(...): a column can have more lines than a call can take arguments.
  const widths = head.map(() => 0);
  for (const cells of [head, ...rows]) {
    cells.forEach((text, c) => {
      for (const line of lines(text)) widths[c] = Math.max(widths[c], stringWidth(line));
    });
  }
  const rule = (left: string, mid: string, right: string) => `${left}${widths.map((w) => '─'.repeat(w + 2)).join(mid)}${right}`;
  const draw = (cells: string[]) => {
    const split = cells.map(lines);
    const height = split.reduce((most, l) => Math.max(most, l.length), 0);
    return Array.from({ length: height }, (_, i) =>
      `│${split.map((l, c) => ` ${l[i] ?? ''}${' '.repeat(widths[c] - stringWidth(l[i] ?? ''))} `).join('│')}│`);
  };
  const out = [rule('┌', '┬', '┐'), ...draw(head), rule('├', '┼', '┤'), ...rows.flatMap(draw), rule('└', '┴', '┘')];
  return `${out.join('\n')}\n(${t.rows.length} row${t.rows.length === 1 ? '' : 's'})\n`;
}
