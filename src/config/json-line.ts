/**
 * The 1-based line of a key path (`['rules', 'dead-catch', 'off']`, `['tasks', 'testPatterns', 1]`)
 * in JSON text that `JSON.parse` accepted, for messages about a value the schema refuses: the
 * line of the member's key, or of the array element. A path that is not all in the text (a
 * default the schema filled in) gives the line of its deepest part that is; the last of
 * repeated keys counts, as in JSON.parse. Iterative, so a deeply nested file cannot overflow.
 */
export function jsonLine(text: string, keys: readonly PropertyKey[]): number {
  let at = skipSpace(text, 0);
  let found = at;
  for (const key of keys) {
    const open = text[at];
    if ((open !== '{' || typeof key !== 'string') && (open !== '[' || typeof key !== 'number')) break;
    let next = -1;
    let i = skipSpace(text, at + 1);
    for (let index = 0; text[i] !== '}' && text[i] !== ']' && i < text.length; index++) {
      const memberAt = i;
      let name: string | number = index;
      if (open === '{') {
        const end = valueEnd(text, i);
        name = JSON.parse(text.slice(i, end)) as string;
        i = skipSpace(text, skipSpace(text, end) + 1); // past the ':'
      }
      if (name === key) {
        found = memberAt;
        next = i;
      }
      i = skipSpace(text, valueEnd(text, i));
      if (text[i] === ',') i = skipSpace(text, i + 1);
    }
    if (next < 0) break;
    at = next;
  }
  return text.slice(0, found).split('\n').length;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  return i;
}

/** The offset just after the JSON value that starts at `i`. */
function valueEnd(text: string, i: number): number {
  if (text[i] === '"') return stringEnd(text, i);
  if (text[i] !== '{' && text[i] !== '[') {
    while (i < text.length && !',}] \t\n\r'.includes(text[i])) i++;
    return i;
  }
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
    if (depth === 0) return i;
  }
  return i;
}

function stringEnd(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return i;
}
