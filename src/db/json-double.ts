/**
 * SQL for a JSON value (JSON, or its text as DuckDB writes it) as a DOUBLE when it is a JSON
 * number that a double can hold (0.41, 1, 4.1e-1), else NULL: a string ("0.41", "NaN"), a
 * boolean, an array, an object, a number past the double's range (1e400, which DuckDB's casts
 * make Infinity). DuckDB's own casts, json_transform to DOUBLE and TRY_CAST of `->>` alike, read
 * "0.41" as 0.41 and json_transform reads true as 1; the same key can hold another type in another
 * line (docs/formats.md#conventions), and the row's JSON keeps whatever was written. The same rule as
 * json-integer.ts: the text of a string keeps its quotes and a boolean is its name, so only a
 * number's text starts with a digit or a minus sign.
 */
export function jsonDouble(json: string): string {
  const text = `${json}::VARCHAR`;
  return `CASE WHEN regexp_matches(${text}, '^-?[0-9]') AND isfinite(TRY_CAST(${text} AS DOUBLE)) THEN TRY_CAST(${text} AS DOUBLE) END`;
}

/** The same rule as a SQL macro, json_double(json), beside json_integer (json-integer.ts). */
export const JSON_DOUBLE_MACRO = `CREATE OR REPLACE MACRO json_double(j) AS ${jsonDouble('j')};`;
