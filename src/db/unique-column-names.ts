// A result's column names, each once: rows are objects keyed by column name, so a second column
// of the same name (`SELECT *` over a join: session_id, ts, line, data) would hide the first.
// The later ones get DuckDB's own suffix for a subquery's duplicate names: a, a_1, a_2, …,
// skipping any name the result already has.

export function uniqueColumnNames(names: string[]): string[] {
  const taken = new Set(names);
  const seen = new Set<string>();
  return names.map((name) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    let k = 1;
    while (taken.has(`${name}_${k}`)) k += 1;
    const unique = `${name}_${k}`;
    taken.add(unique);
    seen.add(unique);
    return unique;
  });
}
