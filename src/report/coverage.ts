// Input coverage: what the figures below stand on. The only section without a canned query: it
// reads the input ledger (input_files, input_problems) that every command shares, and counts the
// rows no window can hold (no readable time), which every other section leaves out.
import type { Database } from '../db/database.js';
import { UNDATED_ROWS_SQL, undatedRows } from '../queries/undated-rows.js';
import type { Row, Tabular } from '../render/types.js';
import { formatDelta } from './shape.js';
import type { ReportWindows, Window } from './types.js';

const inWindow = (col: string) => `${col} >= CAST($since AS TIMESTAMPTZ) AND ${col} < CAST($until AS TIMESTAMPTZ)`;

// A file with no readable time at all cannot be placed in a window: it is counted in the current one.
function overlaps(f: string, currentWindow: boolean): string {
  const undated = currentWindow ? `${f}.min_ts IS NULL OR ` : '';
  return `(${undated}(${f}.min_ts < CAST($until AS TIMESTAMPTZ) AND ${f}.max_ts >= CAST($since AS TIMESTAMPTZ)))`;
}

const counts = (currentWindow: boolean) => `
SELECT
  (SELECT count(DISTINCT session_id) FROM events WHERE ${inWindow('ts')}) AS sessions,
  (SELECT count(*) FROM events WHERE ${inWindow('ts')}) AS events,
  (SELECT count(*) FROM error_records WHERE ${inWindow('ts')}) AS error_records,
  (SELECT count(*) FROM warn_lines WHERE ${inWindow('ts')}) AS warn_lines,
  (SELECT count(*) FROM input_problems p JOIN input_files f USING (file_id) WHERE p.kind <> 'duplicate-key' AND ${overlaps('f', currentWindow)}) AS malformed_lines,
  (SELECT count(*) FROM (${UNDATED_ROWS_SQL}) u JOIN input_files f USING (file_id) WHERE ${overlaps('f', currentWindow)}) AS undated_rows`;

const PROBLEMS = `
SELECT p.path || ':' || p.line AS "where", p.kind, p.reason
FROM input_problems p JOIN input_files f USING (file_id)
WHERE ${overlaps('f', true)}
ORDER BY p.path, p.line`;

const ERRORS = `
SELECT f.path || ':' || e.line AS "where", e.ts AS time, e.phase, e.error
FROM error_records e JOIN input_files f USING (file_id)
WHERE ${inWindow('e.ts')}
ORDER BY e.ts, f.path, e.line
LIMIT 20`;

// The agent's own class of each error (connection, stream, hook, …): the headline names those new this window.
const ERROR_PHASES = `
SELECT coalesce(phase, '(none)') AS phase, count(*) AS records
FROM error_records
WHERE ${inWindow('ts')}
GROUP BY 1`;

const LABELS: Record<string, string> = {
  sessions: 'sessions with events', events: 'events (events.jsonl)', error_records: 'errors.jsonl records',
  warn_lines: 'warn.log records', malformed_lines: 'unreadable lines (files in the window)',
  // Read, but in no window: every windowed figure below leaves them out.
  undated_rows: 'rows with no readable time, in no window (files in the window)',
};

const bind = (w: Window) => ({ since: w.since.toISOString(), until: w.until.toISOString() });

export interface Coverage {
  table: Tabular;
  /** Lines that could not be read, in files whose time range meets the window. */
  problems: Tabular;
  /** The window's errors.jsonl records (first 20 by time): the error text as the agent wrote it. */
  errors: Tabular;
  /** errors.jsonl records by phase: window, previous, Δ (no row for a phase in neither). */
  errorPhases: Tabular;
  /** Whether the previous window holds any event or errors.jsonl record: else nothing this window is "new". */
  previousHoldsData: boolean;
  /** Rows with no readable time in files whose time range meets the window: how many, and the first 20 by file:line. */
  undated: { count: number; first: Tabular };
}

export async function coverage(db: Database, windows: ReportWindows): Promise<Coverage> {
  const now = (await db.all(counts(true), bind(windows.current))).rows[0];
  const before = (await db.all(counts(false), bind(windows.previous))).rows[0];
  const rows: Row[] = Object.keys(LABELS).map((k) => ({
    input: LABELS[k], window: now[k], previous: before[k], 'Δ': formatDelta(now[k] as number, before[k] as number),
  }));
  const problems = await db.all(PROBLEMS, bind(windows.current));
  const errors = await db.all(ERRORS, bind(windows.current));
  const undated = await undatedRows(db, { window: bind(windows.current), limit: 20 });
  const errorPhases = await phases(db, windows);
  const previousHoldsData = Number(before.events) + Number(before.error_records) > 0;
  return { table: { columns: ['input', 'window', 'previous', 'Δ'], rows }, problems, errors, errorPhases, previousHoldsData, undated };
}

async function phases(db: Database, windows: ReportWindows): Promise<Tabular> {
  const count = async (w: Window) => new Map((await db.all(ERROR_PHASES, bind(w))).rows.map((r) => [String(r.phase), Number(r.records)]));
  const now = await count(windows.current);
  const before = await count(windows.previous);
  const rows = [...new Set([...now.keys(), ...before.keys()])].sort().map((phase) => {
    const [n, p] = [now.get(phase) ?? 0, before.get(phase) ?? 0];
    return { phase, window: n, previous: p, 'Δ': formatDelta(n, p) };
  });
  return { columns: ['phase', 'window', 'previous', 'Δ'], rows };
}
