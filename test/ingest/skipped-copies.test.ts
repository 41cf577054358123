// A file the database holds that a later load skips as another copy or another name of what it
// reads is dropped, as a fresh load of the tree never reads it: an archive copy of a session dir
// once the live dir is there (its events were added up with the live dir's, and `sources` listed
// the file both as read and as skipped), and a file replaced by a link to a sibling session's file.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

let work: ReturnType<typeof tempDir>;
let sessions: string;
beforeEach(() => {
  work = tempDir();
  sessions = path.join(work.dir, 'home', 'trajectories', 'sessions');
});
afterEach(() => work.cleanup());

const home = () => path.join(work.dir, 'home');
const writeEvents = (dir: string, session: string, names: string[]) => {
  fs.mkdirSync(path.join(sessions, dir), { recursive: true });
  const line = (name: string, k: number) => JSON.stringify({ event: name, session_id: session, timestamp: `2026-08-20T10:00:0${k}.000Z`, data: {} });
  fs.writeFileSync(path.join(sessions, dir, 'events.jsonl'), names.map(line).join('\n') + '\n');
};
const load = (db: string) => runJson<unknown>(['load', home(), '--db', db, '--quiet']);
const tables = async (db: string) => ({
  events: (await runJson<unknown[]>(['sql', 'SELECT session_id, line, event FROM events ORDER BY ALL', '--db', db])).value,
  sessions: (await runJson<unknown[]>(['sql', 'SELECT session_id, path, events FROM sessions ORDER BY ALL', '--db', db])).value,
  ledger: (await runJson<{ files: unknown[]; skipped: unknown[] }>(['sources', '--db', db])).value,
});
const ledgerOf = (t: Awaited<ReturnType<typeof tables>>) => ({ files: (t.ledger.files as { path: string; lines: number }[]).map((f) => [f.path, f.lines]), skipped: t.ledger.skipped });

it('an archive copy of a session dir, once the live dir appears: as a fresh load, the archive copy skipped', async () => {
  writeEvents('2026-08/s1', 's1', ['ARCH1', 'ARCH2', 'ARCH3']);
  const db = path.join(work.dir, 'kept.duckdb');
  await load(db);
  writeEvents('s1', 's1', ['LIVE1', 'LIVE2']);
  await load(db);
  const fresh = path.join(work.dir, 'fresh.duckdb');
  await load(fresh);
  const kept = await tables(db);
  expect(kept.events).toEqual([{ session_id: 's1', line: 1, event: 'LIVE1' }, { session_id: 's1', line: 2, event: 'LIVE2' }]);
  expect(kept.sessions).toEqual((await tables(fresh)).sessions);
  expect(ledgerOf(kept)).toEqual(ledgerOf(await tables(fresh)));
  expect(ledgerOf(kept).files).toEqual([['trajectories/sessions/s1/events.jsonl', 2]]);
});

it('a loaded events.jsonl replaced by a link to a sibling session\'s: its rows go, as in a fresh load', async () => {
  writeEvents('s1', 's1', ['S1']);
  writeEvents('s3', 's3', ['S3a', 'S3b']);
  const db = path.join(work.dir, 'kept.duckdb');
  await load(db);
  fs.rmSync(path.join(sessions, 's3', 'events.jsonl'));
  fs.symlinkSync('../s1/events.jsonl', path.join(sessions, 's3', 'events.jsonl'));
  await load(db);
  const fresh = path.join(work.dir, 'fresh.duckdb');
  await load(fresh);
  const kept = await tables(db);
  expect(kept.events).toEqual([{ session_id: 's1', line: 1, event: 'S1' }]);
  expect(kept.sessions).toEqual((await tables(fresh)).sessions);
  expect(ledgerOf(kept)).toEqual(ledgerOf(await tables(fresh)));
});
