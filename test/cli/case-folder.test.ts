import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// A folder made by hand for a case: two session dirs beside a usage-ledger.jsonl (so it looks like
// a home), a task output and a notes dir at its top, and a ledger copied into one session dir.
// Everything trajaudit reads is read where it sits; only the notes dir is skipped, and said so.
const CASE = path.join(FIXTURES, 'case-folder');
const S1 = '20260822-090000-cafe0001';
const S2 = '20260822-091500-cafe0002';
const QUERY = `SELECT (SELECT list([session_id, path, events::VARCHAR] ORDER BY session_id) FROM sessions) AS sessions,
  (SELECT list([session_id, prompt_total::VARCHAR] ORDER BY session_id) FROM usage_ledger) AS ledger,
  (SELECT list([path, task_type]) FROM task_outputs) AS tasks`;

describe('fixtures/case-folder: session dirs beside a ledger are read, not skipped', () => {
  it('reads both sessions, both ledgers and the task output; skips the notes dir with its reason', async () => {
    const sources = await runJson<{ files: { path: string; kind: string; valid: number | null }[]; skipped: unknown[] }>(['sources', CASE]);
    expect(sources.run.stderr).toBe('');
    expect(sources.run.code).toBe(0);
    expect(sources.value.files.map((f) => [f.path, f.kind, f.valid])).toEqual([
      [`${S1}/events.jsonl`, 'events', 3],
      [`${S2}/events.jsonl`, 'events', 2],
      [`${S2}/usage-ledger.jsonl`, 'usage-ledger', 1],
      ['a7k2m9q0x.output', 'task-output', null],
      ['usage-ledger.jsonl', 'usage-ledger', 1],
    ]);
    expect(sources.value.skipped).toEqual([{ path: 'notes', reason: 'directory not read (no session file in it)' }]);

    const { value, run } = await runJson<unknown[]>(['sql', QUERY, CASE]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(value).toEqual([{
      sessions: [[S1, S1, '3'], [S2, S2, '2']],
      ledger: [[S1, '12000'], [S2, '5000']],
      tasks: [['a7k2m9q0x.output', 'local_agent']],
    }]);
  });

  it('a session dir with a ledger beside its own files, named alone, is that session and that ledger', async () => {
    const { value, run } = await runJson<unknown[]>(['sql', QUERY, path.join(CASE, S2)]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The root is the session dir: its path is `.`, as its files' paths (`events.jsonl`) are relative to it.
    expect(value).toEqual([{ sessions: [[S2, '.', '2']], ledger: [[S2, '5000']], tasks: null }]);
  });
});
