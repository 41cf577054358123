/**
 * SQL for a JSON value (JSON, or its text as DuckDB writes it) as a BIGINT when it is an integer
 * (4, 4.0, 4e2), else NULL: a fraction, a boolean, a string, an integer past BIGINT. DuckDB's own
 * casts, json_transform to BIGINT and TRY_CAST of `->>` alike, round 4.7 to 5 and read true as 1
 * and "4" as 4; the same key can hold another type in another event (docs/formats.md#conventions), and the
 * row's JSON keeps whatever was written. The text of a string keeps its quotes and a boolean is
 * its name, so neither casts to a number; DuckDB writes every double with a `.` or an `e` (4.0,
 * 1e300) and no integer with either, so the usual case costs one cast (events.idx is projected
 * on every line of a load).
 */
export function jsonInteger(json: string): string {
  const text = `${json}::VARCHAR`;
  return `CASE WHEN NOT contains(${text}, '.') AND NOT contains(${text}, 'e') THEN TRY_CAST(${text} AS BIGINT)
    WHEN TRY_CAST(${text} AS DOUBLE) % 1 = 0 THEN TRY_CAST(${text} AS BIGINT) END`;
}

/**
 * The same rule as a SQL macro, json_integer(json), for the canned queries and `trajaudit sql`
 * (schema.ts creates it): a query reads a key as the views do. It takes JSON (`data->'key'`):
 * `->>` gives a string's text without its quotes, and "4" would read as 4.
 */
export const JSON_INTEGER_MACRO = `CREATE OR REPLACE MACRO json_integer(j) AS ${jsonInteger('j')};`;
