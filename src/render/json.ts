import { jsonText } from './json-text.js';
import type { Row, Tabular } from './types.js';

/** The machine form: one JSON document, an array of row objects keyed by column name. */
export default function renderJson(t: Tabular): string {
  const rows = t.rows.map((row) => {
    const out: Row = {};
    for (const c of t.columns) {
      // defineProperty: a column named "__proto__" is data, not the row's prototype.
      if (c === '__proto__') Object.defineProperty(out, c, { value: row[c] ?? null, enumerable: true, writable: true, configurable: true });
      else out[c] = row[c] ?? null;
    }
    return out;
  });
  return `${jsonText(rows, 2)}\n`;
}
