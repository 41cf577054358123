// The one reading of a time from input text: TIMESTAMPTZ when the text is an ISO-8601 time with its
// zone, NULL otherwise (the caller keeps the text, e.g. in ts_unread).

/**
 * sid-code's own shape (`Date.toISOString()`), digit by digit: a GLOB, 1/3 the cost of the regular
 * expression below (a LIKE, `_` for each digit, let DuckDB's cast read ` 026-…` as year 26).
 */
const TO_ISO_STRING = `'${'[0-9]'.repeat(4)}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'`;
/**
 * Any ISO-8601 / RFC 3339 time with a zone (`Z` or a numeric offset), years of 4 to 6 digits (none
 * before year 1): also DuckDB's own text of a TIMESTAMPTZ (`2026-08-15 09:15:00.1+00`), as the
 * file ranges pass through it. warn.log's record headers are told by it (warn-log.ts).
 */
export const ISO_TIME = /^\+?\d{4,6}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/;
/** The same, for DuckDB's regexp_full_match (RE2 reads this syntax alike; the literal holds no quote). */
const ISO_TIME_SQL = `'${ISO_TIME.source.slice(1, -1)}'`;

/**
 * SQL: `text` (a VARCHAR expression) as a TIMESTAMPTZ, or NULL when it is no ISO-8601 time with a
 * zone. DuckDB's cast alone reads far more, and wrongly for a log: `epoch` as 1970, `-infinity`,
 * `2026-8-2 1:2:3`, a time without a zone as UTC, and a zone name (`… America/New_York`), after
 * which the zone-less times of the same chunk came out shifted by that zone's offset (DuckDB 1.5).
 * Also NULL in the last year DuckDB can hold (294247): its last millisecond prints rounded up, past
 * DuckDB's last time, and that text cannot be read back (the file's time range could not be
 * stored, and every command over the home failed).
 */
export function readTime(text: string): string {
  const cast = `TRY_CAST(${text} AS TIMESTAMPTZ)`;
  // sid-code's shape first: one GLOB and one cast for nearly every row (its year has 4 digits).
  return `CASE WHEN ${text} GLOB ${TO_ISO_STRING} THEN ${cast}
    WHEN regexp_full_match(${text}, ${ISO_TIME_SQL}) AND ${cast} < TIMESTAMPTZ '294247-01-01 00:00:00+00' THEN ${cast} END`;
}
