import { randomBytes } from 'node:crypto';
import { type Cell, ExactNumber } from './types.js';

// JSON.stringify, except that an ExactNumber is written as its digits (a JSON number), not as an
// object: it passes through as a marked string, and the marks are taken off afterwards.
const MARK = `\u0000${randomBytes(6).toString('hex')}:`;
const MARKED = new RegExp(`"\\\\u0000${MARK.slice(1)}([^"\\\\]+)\\\\u0000"`, 'g');
const replacer = (_key: string, value: unknown) => (value instanceof ExactNumber ? `${MARK}${value.digits}\u0000` : value);

export function jsonText(value: Cell | Cell[] | Record<string, Cell>, indent?: number): string {
  if (ExactNumber.made === 0) return JSON.stringify(value, null, indent); // a replacer costs a call per value
  const text = JSON.stringify(value, replacer, indent);
  return text.includes('\\u0000') ? text.replace(MARKED, '$1') : text;
}
