// A window that holds no event gives an all-zero report or an empty answer, exit 0: a real answer,
// but on a home whose data is older than the default 7 days the first run looks broken. This
// finds that case and where the inputs' times do lie, for one line on stderr.
import type { Database } from '../db/database.js';
import { firstEventTime } from '../ingest/first-event-time.js';
import type { UnreadFile } from '../ingest/plan-load.js';

/** The window's bounds as ISO-8601 UTC text, to the microsecond (a query's bounds may hold them). */
export interface IsoWindow {
  since?: string;
  until?: string;
}

const TIMED_ROWS = `
  SELECT ts, session_id FROM events UNION ALL SELECT ts, session_id FROM error_records
  UNION ALL SELECT ts, session_id FROM warn_lines UNION ALL SELECT ts, session_id FROM claude_lines`;

/**
 * The hint when [since, until) holds no timed row (events, errors.jsonl, warn.log; of `session`
 * when given) while the inputs hold some; null otherwise. The span covers the rows read and the
 * files the window left unread (their first record, and their last write when before the window).
 */
/** Whether any timed record (an event, a warn.log line, an error record…) lies in the window. */
export async function holdsEvents(db: Database, window: IsoWindow): Promise<boolean> {
  const rows = await db.all(`SELECT count(*) > 0 AS any FROM (SELECT 1 FROM (${TIMED_ROWS})
    WHERE ts >= CAST($since AS TIMESTAMPTZ) AND ts < CAST($until AS TIMESTAMPTZ) LIMIT 1)`, { since: window.since ?? null, until: window.until ?? null });
  return rows.rows[0].any === true;
}

export async function emptyWindowHint(db: Database, window: IsoWindow, unread: UnreadFile[], session?: string): Promise<string | null> {
  const params = { since: window.since ?? null, until: window.until ?? null, session: session ?? null };
  const since = window.since === undefined ? undefined : new Date(window.since);
  const rows = (await db.all(`
    SELECT epoch_ms(min(ts)) AS first, epoch_ms(max(ts)) AS last,
      count(*) FILTER (WHERE ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ)) AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))) AS inside
    FROM (${TIMED_ROWS}) WHERE ts IS NOT NULL AND ($session IS NULL OR session_id = $session)`, params)).rows[0];
  if (Number(rows.inside) > 0) return null;
  const firsts: number[] = rows.first === null ? [] : [Number(rows.first)];
  const lasts: number[] = rows.last === null ? [] : [Number(rows.last)];
  for (const { file, mtime } of unread) {
    if (session !== undefined && file.sessionId !== session) continue;
    const first = firstEventTime(file.absPath, file.kind);
    if (first !== null) firsts.push(first.getTime());
    // Last written before the window: its last record is about then. A file left unread for its
    // first record after the window says nothing of its last but that record (a copied or
    // checked-out file's mtime is the copy's).
    if (since && mtime < since) lasts.push(mtime.getTime());
    else if (first !== null) lasts.push(first.getTime());
  }
  if (firsts.length === 0 || lasts.length === 0) return null;
  // reduce, not Math.min(...): a home can have more files than a call can take arguments.
  const first = firsts.reduce((a, b) => Math.min(a, b));
  const last = lasts.reduce((a, b) => Math.max(a, b));
  // As given, without the fraction's trailing zeros: 2026-08-20T11:00:00.0005Z.
  const [from, to] = [window.since, window.until].map((iso) => iso?.replace(/(\.\d*?)0+Z$/, '$1Z').replace(/\.Z$/, 'Z'));
  const bounds = from && to ? `${from} … ${to}` : from ? `from ${from} on` : `before ${to}`;
  const whose = session !== undefined ? `session ${session}'s inputs` : 'the inputs';
  return `the window ${bounds} holds no event; ${whose} span ${shown(first)} … ${shown(last)}: pass --since/--until within that span`;
}

function shown(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
