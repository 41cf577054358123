// The judge of "valid line": V8's JSON.parse implements RFC 8259 exactly (no trailing commas,
// comments, NaN/Infinity, or second value). DuckDB's reader is lenient (trailing commas, NaN),
// so it only ever fast-paths lines that cannot contain those constructs (see stage-jsonl.ts).
export type StrictVerdict = { ok: true } | { ok: false; reason: string };

/** A newline stands between `at` and what precedes it but whitespace (a document's second value; a JSONL line has none). */
function onLineOfItsOwn(text: string, at: number): boolean {
  for (let p = at - 1; p >= 0 && ' \t\r\n'.includes(text[p]); p -= 1) if (text[p] === '\n') return true;
  return false;
}

function hint(message: string, text: string): string {
  const at = /after JSON at position (\d+)/.exec(message);
  if (at) {
    const next = text.charCodeAt(Number(at[1]));
    if (next < 32) return `${message} (control character U+${next.toString(16).toUpperCase().padStart(4, '0')} after the object)`;
    if (text[Number(at[1])] === '{' || text[Number(at[1])] === '[') return `${message} (${onLineOfItsOwn(text, Number(at[1])) ? 'a second JSON value, on a line of its own: written twice?' : 'two JSON values on one line: interleaved writers?'})`;
    return message;
  }
  if (/Unexpected end of JSON/i.test(message)) return `${message} (line cut short)`;
  return message;
}

export function strictJsonObject(text: string): StrictVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // V8 names an unexpected emoji by its first half (and may cut its quote of the text inside a
    // pair): half a surrogate pair cannot be stored, so it becomes U+FFFD.
    return { ok: false, reason: hint((error as Error).message, text).replace(/\p{Cs}/gu, '\uFFFD') };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { ok: false, reason: `valid JSON but ${what}, not an object` };
  }
  return { ok: true };
}

export const EXCERPT_CHARS = 120;

export function excerpt(text: string): string {
  return [...text].slice(0, EXCERPT_CHARS).join('');
}
