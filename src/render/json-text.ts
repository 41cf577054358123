import { randomBytes } from 'node:crypto';
import { type Cell, ExactNumber } from './types.js';

// JSON.stringify, except that an ExactNumber is written as its digits (a JSON number), not as an
// object: it passes through as a marked string, and the marks are taken off afterwards.
const MARK = `\u0000${randomBytes(6).toString('hex')}:`;
const MARKED = new RegExp(`"\\\\u0000${MARK.slice(1)}([^"\\\\]+)\\\\u0000"`, 'g');
const replacer = (_key: string, value: unknown) => (value instanceof ExactNumber ? `${MARK}${value.digits}\u0000` : value);

type Json = Cell | Cell[] | Record<string, Cell>;

export function jsonText(value: Json, indent?: number): string {
  try {
    if (ExactNumber.made === 0) return JSON.stringify(value, null, indent); // a replacer costs a call per value
    const text = JSON.stringify(value, replacer, indent);
    return text.includes('\\u0000') ? text.replace(MARKED, '$1') : text;
  } catch (error) {
    // JSON.stringify recurses: a valid line nested thousands deep overflows the stack.
    if (error instanceof RangeError) return deepJsonText(value, indent ?? 0);
    throw error;
  }
}

interface Frame {
  open: Cell[] | Record<string, Cell>;
  keys: string[] | null;
  next: number;
}

/** Past this depth values are written without line breaks: indented, 10,000 levels would be 200 MB of spaces. */
const INDENT_DEPTH = 64;

/** The same text as jsonText, without recursion (and without indentation past INDENT_DEPTH). */
export function deepJsonText(root: Json, indent: number): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  /** A line break before a member of a container `depth` levels in, or before the end of one (`depth` - 1 after it). */
  const newline = (depth: number, at = depth) => (indent > 0 && depth <= INDENT_DEPTH ? `\n${' '.repeat(indent * at)}` : '');
  const write = (value: Json) => {
    if (value === null || typeof value !== 'object') out.push(JSON.stringify(value) ?? 'null');
    else if (value instanceof ExactNumber) out.push(value.digits);
    else {
      const keys = Array.isArray(value) ? null : Object.keys(value);
      const empty = keys ? keys.length === 0 : (value as Cell[]).length === 0;
      if (empty) out.push(keys ? '{}' : '[]');
      else {
        out.push(keys ? '{' : '[');
        stack.push({ open: value as Cell[] | Record<string, Cell>, keys, next: 0 });
      }
    }
  };
  write(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const size = frame.keys ? frame.keys.length : (frame.open as Cell[]).length;
    if (frame.next === size) {
      stack.pop();
      out.push(newline(stack.length + 1, stack.length), frame.keys ? '}' : ']');
      continue;
    }
    const i = frame.next++;
    out.push(i > 0 ? ',' : '', newline(stack.length));
    if (frame.keys) {
      out.push(JSON.stringify(frame.keys[i]), indent > 0 ? ': ' : ':');
      write((frame.open as Record<string, Cell>)[frame.keys[i]]);
    } else write((frame.open as Cell[])[i]);
  }
  return out.join('');
}
