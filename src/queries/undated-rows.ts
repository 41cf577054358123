// Rows that loaded (valid JSON, a known record) but carry no readable time: a missing `timestamp`,
// text that is no ISO-8601 time, or a number. No time window can hold them, so --since/--until and
// every report window leave them out; this says how many and where, so that the loss is never silent.
import type { Database } from '../db/database.js';
import type { Tabular } from '../render/types.js';

/** The undated rows of the time-stamped tables a window filters: file_id, session_id, line, source, what. */
export const UNDATED_ROWS_SQL = `
  SELECT file_id, session_id, line, 'events.jsonl' AS source, event AS what FROM events WHERE ts IS NULL
  UNION ALL SELECT file_id, session_id, line, 'errors.jsonl', phase FROM error_records WHERE ts IS NULL
  UNION ALL SELECT file_id, session_id, line, 'warn.log', category FROM warn_lines WHERE ts IS NULL`;

export interface UndatedRows {
  /** Every undated row in scope. */
  count: number;
  /** The first `limit` of them: where (file:line), source, what (event, phase or warn.log category). */
  first: Tabular;
}

export interface UndatedScope {
  /** Only this session's rows. */
  session?: string;
  /** Only rows of files whose time range meets [since, until), or files with no time at all (report windows). */
  window?: { since: string; until: string };
  limit: number;
}

export async function undatedRows(db: Database, scope: UndatedScope): Promise<UndatedRows> {
  const where = [
    ...(scope.session !== undefined ? ['u.session_id = $session'] : []),
    ...(scope.window ? ['(f.min_ts IS NULL OR (f.min_ts < CAST($until AS TIMESTAMPTZ) AND f.max_ts >= CAST($since AS TIMESTAMPTZ)))'] : []),
  ];
  const params = { ...(scope.session !== undefined ? { session: scope.session } : {}), ...(scope.window ?? {}) };
  const from = `FROM (${UNDATED_ROWS_SQL}) u JOIN input_files f USING (file_id) ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
  const count = Number((await db.all(`SELECT count(*) AS n ${from}`, params)).rows[0].n);
  const first = count === 0
    ? { columns: ['where', 'source', 'what'], rows: [] }
    : await db.all(`SELECT f.path || ':' || u.line AS "where", u.source, u.what ${from} ORDER BY f.path, u.line LIMIT ${scope.limit}`, params);
  return { count, first };
}
