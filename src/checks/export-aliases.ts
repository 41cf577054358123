/**
 * Names the tree's own files export under another name (`export { FileReadTracker as Tracker }`,
 * re-exported from another module or a local), mapped to the configured name they stand for;
 * chains (`export { Tracker as T2 }` elsewhere) are followed. A text scan of every file's export
 * lists, so that a barrel needs no parse; a file that imports `Tracker` then constructs a
 * `FileReadTracker`.
 */
export function reexportAliases(files: ReadonlyArray<{ searchText: string }>, names: ReadonlySet<string>): Map<string, string> {
  const aliases = new Map<string, string>();
  const lists: string[] = [];
  for (const { searchText } of files) {
    for (const match of searchText.matchAll(exportList)) lists.push(match[1]);
  }
  if (lists.length === 0) return aliases;
  const pairs = lists.flatMap((list) =>
    list.split(',').flatMap((specifier) => {
      const found = /^\s*(?:type\s+)?([\w$]+|'[^']*'|"[^"]*")\s+as\s+([\w$]+|'[^']*'|"[^"]*")\s*$/.exec(specifier.replace(/\/\*[^]*?\*\/|\/\/[^\n]*/g, ' '));
      return found ? [{ from: unquote(found[1]), to: unquote(found[2]) }] : [];
    }),
  );
  const originalOf = (name: string) => (names.has(name) ? name : aliases.get(name));
  // Follow chains until nothing new is learnt: each round can only add a name, so at most one round per pair.
  for (let changed = true; changed; ) {
    changed = false;
    for (const { from, to } of pairs) {
      const original = originalOf(from);
      if (original !== undefined && !names.has(to) && !aliases.has(to)) {
        aliases.set(to, original);
        changed = true;
      }
    }
  }
  return aliases;
}

const exportList = /\bexport\s*(?:type\s*)?\{([^}]*)\}/g;

function unquote(name: string): string {
  return /^['"]/.test(name) ? name.slice(1, -1) : name;
}
