import Table from 'cli-table3';
import { cellText } from './cell-text.js';
import type { Tabular } from './types.js';
import { visibleText } from './visible-text.js';

/**
 * A cell's text: as visibleText, and a tab as \u0009 too, like the other control characters. The
 * box measures a tab as one column while a terminal expands it to the next tab stop, so a cell
 * holding one would stick out of its border (shell commands and output in payloads hold tabs).
 */
const cellFor = (text: string) => visibleText(text).replace(/\t/g, '\\u0009');

export default function renderTable(t: Tabular): string {
  if (t.rows.length === 0) return `(no rows)\n`;
  const table = new Table({ head: t.columns.map(cellFor), style: { head: [], border: [], compact: true }, wordWrap: false });
  for (const row of t.rows) {
    table.push(t.columns.map((c) => {
      const text = cellFor(cellText(row[c]));
      return text.length > 120 ? `${text.slice(0, 117)}...` : text;
    }));
  }
  return `${table.toString()}\n(${t.rows.length} row${t.rows.length === 1 ? '' : 's'})\n`;
}
