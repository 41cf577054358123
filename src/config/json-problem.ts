/** Where and why a JSON file that `JSON.parse` rejected is invalid: V8's message often has no position. */
export interface JsonProblem {
  /** 1-based. */
  line: number;
  column: number;
  reason: string;
  /** The file holds git merge-conflict markers (`<<<<<<<` at `line`). */
  conflict: boolean;
}

const conflictMarker = /^(?:<{7}|\|{7}|={7}|>{7})(?:[ \t]|$)/m;

export function jsonProblem(text: string, parseError: Error): JsonProblem {
  const marker = conflictMarker.exec(text);
  if (marker) return { ...lineAndColumn(text, marker.index), reason: 'merge-conflict markers', conflict: true };
  const found = firstSyntaxError(text);
  if (!found) return { line: 1, column: 1, reason: parseError.message, conflict: false };
  return { ...lineAndColumn(text, found.offset), reason: found.reason, conflict: false };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

type Expect = 'value' | 'first-value' | 'key' | 'first-key' | 'colon' | 'after';

const literal = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** A strict JSON scan (RFC 8259) without recursion; it only locates the first error. */
function firstSyntaxError(text: string): { offset: number; reason: string } | undefined {
  const open: string[] = [];
  let expect: Expect = 'value';
  let comma = -1;
  for (let i = 0; ; ) {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
    if (i >= text.length) return expect === 'after' && open.length === 0 ? undefined : { offset: i, reason: 'unexpected end of file' };
    const c = text[i];
    const close = open.at(-1) === '{' ? '}' : ']';
    if (expect === 'after') {
      if (open.length === 0) return { offset: i, reason: `unexpected ${shown(c)} after the end of the document` };
      if (c === ',') {
        comma = i++;
        expect = close === '}' ? 'key' : 'value';
      } else if (c === close) {
        open.pop();
        i++;
      } else {
        return { offset: i, reason: `expected ',' or '${close}', found ${shown(c)}` };
      }
    } else if (expect === 'colon') {
      if (c !== ':') return { offset: i, reason: `expected ':' after a property name, found ${shown(c)}` };
      i++;
      expect = 'value';
    } else if ((expect === 'key' || expect === 'value') && c === close && comma >= 0 && text.slice(comma + 1, i).trim() === '') {
      return { offset: comma, reason: `trailing comma before '${close}'` };
    } else if ((expect === 'first-key' && c === '}') || (expect === 'first-value' && c === ']')) {
      open.pop();
      i++;
      expect = 'after';
    } else if (expect === 'key' || expect === 'first-key') {
      if (c !== '"') return { offset: i, reason: `expected a property name in double quotes, found ${shown(c)}` };
      const end = stringEnd(text, i);
      if (typeof end !== 'number') return end;
      i = end;
      expect = 'colon';
    } else if (c === '{' || c === '[') {
      open.push(c);
      i++;
      expect = c === '{' ? 'first-key' : 'first-value';
    } else if (c === '"') {
      const end = stringEnd(text, i);
      if (typeof end !== 'number') return end;
      i = end;
      expect = 'after';
    } else {
      literal.lastIndex = i;
      if (!literal.test(text)) return { offset: i, reason: `unexpected ${shown(c)}` };
      i = literal.lastIndex;
      expect = 'after';
    }
  }
}

/** The offset after the string that starts at `start`, or the error inside it. */
function stringEnd(text: string, start: number): number | { offset: number; reason: string } {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return i + 1;
    if (c === '\n' || c === '\r') break;
    if (c < ' ') return { offset: i, reason: 'control character in a string' };
    if (c === '\\') {
      const escape = text[i + 1];
      if (escape === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !'"\\/bfnrt'.includes(escape ?? 'x')) {
        return { offset: i, reason: 'invalid escape in a string' };
      }
      i += escape === 'u' ? 5 : 1;
    }
  }
  return { offset: start, reason: 'unterminated string' };
}

function shown(c: string): string {
  return c >= ' ' && c <= '~' ? `'${c}'` : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
