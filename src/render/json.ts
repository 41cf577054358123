import { jsonText } from './json-text.js';
import type { Row, Tabular } from './types.js';

/** The machine form: one JSON document, an array of row objects keyed by column name. */
export default function renderJson(t: Tabular): string {
  return `${jsonText(keyedAsColumns(t) ? t.rows : t.rows.map((row) => copyAsColumns(row, t.columns)), 2)}\n`;
}

/** Whether every row holds exactly the columns, in their order, none undefined (a database result does): then no copy is needed. */
function keyedAsColumns(t: Tabular): boolean {
  for (const row of t.rows) {
    let i = 0;
    for (const key in row) {
      if (key !== t.columns[i] || row[key] === undefined) return false;
      i += 1;
    }
    if (i !== t.columns.length) return false;
  }
  return true;
}

function copyAsColumns(row: Row, columns: string[]): Row {
  const out: Row = {};
  for (const c of columns) {
    // defineProperty: a column named "__proto__" is data, not the row's prototype.
    if (c === '__proto__') Object.defineProperty(out, c, { value: row[c] ?? null, enumerable: true, writable: true, configurable: true });
    else out[c] = row[c] ?? null;
  }
  return out;
}
