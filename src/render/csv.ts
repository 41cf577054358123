import { cellText } from './cell-text.js';
import type { Tabular } from './types.js';

function quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV with a header row. */
export default function renderCsv(t: Tabular): string {
  const lines = [t.columns.map(quote).join(',')];
  for (const row of t.rows) lines.push(t.columns.map((c) => quote(cellText(row[c]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
