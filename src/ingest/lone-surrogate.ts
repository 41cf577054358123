// RFC 8259 lets a string escape half a surrogate pair ("\ud83d"); JavaScript writers produce one
// whenever they cut a string inside an emoji. DuckDB's JSON (yyjson) refuses it, and UTF-8 text
// cannot hold it, so a value holding one cannot be stored as parsed.

/** The first escape in valid JSON text that stands for half a surrogate pair, and its position. */
export function loneSurrogateEscape(json: string): { escape: string; position: number } | null {
  // In valid JSON every backslash starts an escape inside a string.
  for (let i = json.indexOf('\\'); i !== -1; i = json.indexOf('\\', i)) {
    if (json[i + 1] !== 'u') {
      i += 2;
      continue;
    }
    const unit = Number.parseInt(json.slice(i + 2, i + 6), 16);
    if (unit >= 0xd800 && unit <= 0xdbff && /^\\u[dD][c-fC-F]/.test(json.slice(i + 6, i + 10))) {
      i += 12;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      return { escape: json.slice(i, i + 6), position: i };
    } else {
      i += 6;
    }
  }
  return null;
}

export function cannotStoreReason(found: { escape: string; position: number }): string {
  return `valid JSON that DuckDB cannot store (lone surrogate escape ${found.escape} in JSON at position ${found.position})`;
}
