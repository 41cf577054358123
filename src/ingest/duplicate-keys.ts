// A record that names an envelope key twice (`"data":{…},"data":{…}`, two writes run together) is
// valid JSON, and its first value is stored: the later one would be stored nowhere. Such a line
// is listed in the ledger (kind `duplicate-key`) and still loaded as it is. Lines naming a key
// quoted twice are found by the line scanner (line-scanner.wat; in SQL by the staged reader) and
// judged here.

/** The top-level keys a valid JSON object's text names more than once, in order. */
export function duplicateTopLevelKeys(text: string): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (seen.has(key) && !twice.includes(key)) twice.push(key);
        seen.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      depth += 1;
      expectKey = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') {
      depth -= 1;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
  }
  return twice;
}

export function duplicateKeyReason(keys: string[]): string {
  const named = keys.map((k) => JSON.stringify(k)).join(', ');
  return `the top-level key${keys.length === 1 ? '' : 's'} ${named} ${keys.length === 1 ? 'is' : 'are'} named more than once: the first value is stored, the later ones nowhere`;
}
