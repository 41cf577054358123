import { jsonText } from './json-text.js';
import { type Cell, ExactNumber } from './types.js';

/** One-line text for a cell in human formats; nested values are shown as compact JSON. */
export function cellText(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object' && !(value instanceof ExactNumber)) return jsonText(value);
  return String(value);
}
