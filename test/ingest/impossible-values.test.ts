import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

// Valid JSON whose values cannot be stored in their typed columns: a 30th of February, year 99999,
// epoch seconds of 1e20, a number past BIGINT, "garbage" for a time. Each record loads, the
// typed column is NULL (or the value itself, when DuckDB can hold it), and the JSON keeps it all.
const HOME = path.join(FIXTURES, 'impossible-values');
const SESSION = 'trajectories/sessions/20260815-091500-0dd5ca1e';

const sql = async (query: string, args: string[] = [HOME]) => {
  const { value, run } = await runJson<Record<string, unknown>[]>(['sql', query, ...args]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return value;
};

describe('fixtures/impossible-values: values no column can hold do not stop a load', () => {
  const work = tempDir();
  afterAll(work.cleanup);

  it('reads every line of every file as valid, exit 0', async () => {
    const { value, run } = await runJson<{ files: { path: string; lines: number; valid: number; ts_unread: number }[]; problems: unknown[] }>(['sources', HOME]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(value.problems).toEqual([]);
    // ts_unread: the valid records whose time no column can hold (kept as written), per file.
    expect(value.files.map((f) => [f.path, f.lines, f.valid, f.ts_unread])).toEqual([
      ['session-index.jsonl', 1, 1, 1],
      [`${SESSION}/events.jsonl`, 3, 3, 1],
      [`${SESSION}/heartbeat.txt`, 1, 1, 1],
      [`${SESSION}/session-summary.json`, 6, 6, 0],
      [`${SESSION}/warn.log`, 3, 3, 1],
      ['usage-ledger.jsonl', 2, 2, 2],
    ]);
  });

  it('events: an impossible date is NULL, year 99999 is kept, and so are the sessions and ledger ranges', async () => {
    expect(await sql('SELECT line, ts, ts_unread, event, idx FROM events ORDER BY line')).toEqual([
      { line: 1, ts: '2026-08-15T09:15:00.000Z', ts_unread: null, event: 'SessionStart', idx: null },
      { line: 2, ts: null, ts_unread: '2026-02-30T09:15:01.000Z', event: 'StreamPhase', idx: null }, // data.index past BIGINT
      { line: 3, ts: '+099999-08-15T01:15:00.100Z', ts_unread: null, event: 'TurnComplete', idx: null },
    ]);
    expect(await sql('SELECT first_event_ts, last_event_ts FROM sessions')).toEqual([
      { first_event_ts: '2026-08-15T09:15:00.000Z', last_event_ts: '+099999-08-15T01:15:00.100Z' },
    ]);
    expect(await sql(`SELECT min_ts, max_ts FROM input_files WHERE kind = 'events'`)).toEqual([
      { min_ts: '2026-08-15T09:15:00.000Z', max_ts: '+099999-08-15T01:15:00.100Z' },
    ]);
  });

  it('warn.log: the record with 30 February keeps its message, its time is NULL, and the file range is in time order', async () => {
    expect(await sql('SELECT line, ts, ts_unread, message FROM warn_lines ORDER BY line')).toEqual([
      { line: 1, ts: null, ts_unread: '2026-02-30T01:00:00.000Z', message: 'a day that does not exist' },
      { line: 2, ts: '2026-08-15T09:15:02.500Z', ts_unread: null, message: 'half a second' },
      { line: 3, ts: '2026-08-15T09:15:02.000Z', ts_unread: null, message: 'earlier, with a shorter time' },
    ]);
    expect(await sql(`SELECT min_ts, max_ts FROM input_files WHERE kind = 'warn-log'`)).toEqual([
      { min_ts: '2026-08-15T09:15:02.000Z', max_ts: '2026-08-15T09:15:02.500Z' },
    ]);
  });

  it('documents and ledgers: typed columns NULL, the raw values kept in the record', async () => {
    expect(await sql(`SELECT ts, record->>'ts' AS raw FROM heartbeats`)).toEqual([{ ts: null, raw: 'garbage' }]);
    expect(await sql('SELECT exit_status, abnormal, real_errors FROM session_summaries')).toEqual([
      { exit_status: 'end_turn', abnormal: null, real_errors: null },
    ]);
    expect(await sql(`SELECT line, ts, session_id, record->>'ts' AS raw FROM usage_ledger_rows ORDER BY line`)).toEqual([
      { line: 1, ts: null, session_id: '0dd5ca1e', raw: '100000000000000000000.0' },
      { line: 2, ts: null, session_id: '0dd5ca1f', raw: 'yesterday' },
    ]);
    expect(await sql('SELECT ts, session_id FROM session_index_rows')).toEqual([{ ts: null, session_id: '20260815-091500-0dd5ca1e' }]);
  });

  it('the same through load --db, and an unchanged re-run adds nothing', async () => {
    const db = path.join(work.dir, 'values.duckdb');
    for (let k = 0; k < 2; k++) {
      const load = await runCli(['load', HOME, '--db', db, '--quiet']);
      expect(load.stderr).toBe('');
      expect(load.code).toBe(0);
    }
    expect(await sql(`SELECT count(*) AS n, max(ts) AS last FROM events`, ['--db', db])).toEqual([{ n: 3, last: '+099999-08-15T01:15:00.100Z' }]);
    expect(await sql(`SELECT kind, min_ts, max_ts FROM input_files WHERE min_ts IS NOT NULL ORDER BY kind`, ['--db', db])).toEqual([
      { kind: 'events', min_ts: '2026-08-15T09:15:00.000Z', max_ts: '+099999-08-15T01:15:00.100Z' },
      { kind: 'warn-log', min_ts: '2026-08-15T09:15:02.000Z', max_ts: '2026-08-15T09:15:02.500Z' },
    ]);
  });
});
