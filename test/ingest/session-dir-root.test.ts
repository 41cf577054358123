import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runJson, tempDir } from '../helpers/run-cli.js';

// "File paths in every output are relative to the root you named": a session's path is relative
// to it too, so it is a prefix of its files' paths under every root, `.` when the root is the
// session dir itself (or the dir of the one events.jsonl named).
const SESSIONS = path.join(FIXTURES, 'home/trajectories/sessions');
const ID = '3b9f02d6';
const QUERY = `SELECT s.path AS session_path, list(f.path ORDER BY f.path) AS files FROM sessions s JOIN input_files f USING (session_id)
  WHERE session_id = '${ID}' GROUP BY s.path`;

const run = async (args: string[]) => {
  const { value, run: r } = await runJson<Record<string, unknown>[]>(['sql', QUERY, ...args, '--quiet']);
  expect(r.code).toBe(0);
  return value;
};

describe('sessions.path and session_dirs.path are relative to the root, as file paths are', () => {
  const work = tempDir();
  afterAll(work.cleanup);

  it('a session dir named alone is `.`; its files are bare names', async () => {
    expect(await run([path.join(SESSIONS, ID)])).toEqual([{ session_path: '.', files: ['events.jsonl', 'session-summary.json'] }]);
  });

  it('an events.jsonl named alone: its session is `.` too', async () => {
    expect(await run([path.join(SESSIONS, ID, 'events.jsonl')])).toEqual([{ session_path: '.', files: ['events.jsonl'] }]);
  });

  it('the sessions dir: the session path prefixes its files', async () => {
    expect(await run([SESSIONS])).toEqual([{ session_path: ID, files: [`${ID}/events.jsonl`, `${ID}/session-summary.json`] }]);
  });

  it('with --db, a session dir loaded first and a wider load after: the paths gain the same prefix', async () => {
    const db = path.join(work.dir, 'one.duckdb');
    expect(await run([path.join(SESSIONS, ID), '--db', db])).toEqual([{ session_path: '.', files: ['events.jsonl', 'session-summary.json'] }]);
    expect(await run([SESSIONS, '--db', db])).toEqual([{ session_path: ID, files: [`${ID}/events.jsonl`, `${ID}/session-summary.json`] }]);
  });
});
