import Table from 'cli-table3';
import { cellText } from './cell-text.js';
import type { Tabular } from './types.js';
import { visibleText } from './visible-text.js';

export default function renderTable(t: Tabular): string {
  if (t.rows.length === 0) return `(no rows)\n`;
  const table = new Table({ head: t.columns.map(visibleText), style: { head: [], border: [], compact: true }, wordWrap: false });
  for (const row of t.rows) {
    table.push(t.columns.map((c) => {
      const text = visibleText(cellText(row[c]));
      return text.length > 120 ? `${text.slice(0, 117)}...` : text;
    }));
  }
  return `${table.toString()}\n(${t.rows.length} row${t.rows.length === 1 ? '' : 's'})\n`;
}
