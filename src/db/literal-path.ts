// DuckDB's file readers (read_json, read_csv) take a path as a glob: `*`, `?` and `[…]` match
// other files. A session dir named `s[1]` would be read as `s1`. Each of those characters in
// brackets matches only itself.
export const literalPath = (absPath: string): string => absPath.replace(/[*?[]/g, (ch) => `[${ch}]`);
