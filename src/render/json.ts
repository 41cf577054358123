import { jsonText } from './json-text.js';
import type { Tabular } from './types.js';

/** The machine form: one JSON document, an array of row objects keyed by column name. */
export default function renderJson(t: Tabular): string {
  const rows = t.rows.map((row) => Object.fromEntries(t.columns.map((c) => [c, row[c] ?? null])));
  return `${jsonText(rows, 2)}\n`;
}
