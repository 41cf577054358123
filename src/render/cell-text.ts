import type { Cell } from './types.js';

/** One-line text for a cell in human formats; nested values are shown as compact JSON. */
export function cellText(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
