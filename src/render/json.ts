import type { Tabular } from './types.js';

/** The machine form: one JSON document, an array of row objects keyed by column name. */
export default function renderJson(t: Tabular): string {
  const rows = t.rows.map((row) => Object.fromEntries(t.columns.map((c) => [c, row[c] ?? null])));
  return `${JSON.stringify(rows, null, 2)}\n`;
}
