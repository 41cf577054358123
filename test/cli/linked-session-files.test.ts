// A file link inside a session dir. A link to the same file of a session dir beside it
// (b/events.jsonl → ../a/events.jsonl) is another name for that session's file, as a link to a
// session dir beside it is another name for that session: skipped, and said so. Any file reached
// by several names is read under its own name (not a link), else the first link by path, and every
// other name is listed as skipped; which session owns a file never depends on what was named first
// or loaded first.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

const work = tempDir();
afterAll(work.cleanup);

const event = (session: string, second: number) =>
  JSON.stringify({ event: 'UserPromptSubmit', session_id: session, timestamp: `2026-08-15T02:00:0${second}.000Z`, data: {} });
function eventsFile(file: string, session: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${[1, 2, 3].map((s) => event(session, s)).join('\n')}\n`);
}
/** The sessions (with their event counts) and the files (with their session) a database holds. */
const stateOf = async (db: string) => (await runJson<{ what: string; name: string; session_id: string }[]>(['sql',
  `SELECT 'session' AS what, session_id, events::VARCHAR AS name FROM sessions UNION ALL SELECT 'file', session_id, path FROM input_files ORDER BY ALL`, '--db', db])).value
  .map((r) => `${r.what} ${r.session_id} ${r.name}`);

describe('a link to the file of a session dir beside it', () => {
  const home = path.join(work.dir, 'home');
  const sessions = path.join(home, 'trajectories', 'sessions');
  eventsFile(path.join(sessions, 'a', 'events.jsonl'), 'a');
  fs.mkdirSync(path.join(sessions, 'b'));
  fs.symlinkSync('../a/events.jsonl', path.join(sessions, 'b', 'events.jsonl'));
  const link = path.join(sessions, 'b', 'events.jsonl');

  it('is skipped as another name for it, and a session dir holding only that has nothing to read', async () => {
    const { value, run } = await runJson<{ files: { path: string; session_id: string }[]; skipped: unknown[] }>(['sources', home]);
    expect(run.code).toBe(0);
    expect(value.files.map((f) => [f.path, f.session_id])).toEqual([['trajectories/sessions/a/events.jsonl', 'a']]);
    expect(value.skipped).toEqual([{ path: 'trajectories/sessions/b/events.jsonl', reason: 'another name for events.jsonl of session directory a' }]);
    expect(await runCli(['sources', path.join(sessions, 'b')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: ${path.join(sessions, 'b')} holds no file trajaudit reads (1 entry skipped, first events.jsonl: another name for events.jsonl of session directory a); pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript\n`,
    });
  });

  it('named itself, stands for that file; loaded before or after the home, the file is session a\'s', async () => {
    expect((await runJson<{ files: { path: string; session_id: string }[] }>(['sources', link])).value.files.map((f) => [f.path, f.session_id])).toEqual([['events.jsonl', 'a']]);
    for (const order of [[link, home], [home, link]]) {
      const db = path.join(work.dir, `order-${order[0] === home ? 'home' : 'link'}.duckdb`);
      for (const named of order) expect((await runCli(['load', named, '--db', db, '--quiet'])).code).toBe(0);
      expect(await stateOf(db)).toEqual(['file a trajectories/sessions/a/events.jsonl', 'session a 3', 'session b 0']);
    }
  });
});

describe('one file linked from two session dirs', () => {
  const home = path.join(work.dir, 'two');
  const sessions = path.join(home, 'trajectories', 'sessions');
  const outside = path.join(work.dir, 'store', 'events-copy.jsonl');
  eventsFile(outside, 's');
  for (const id of ['s1', 's2']) {
    fs.mkdirSync(path.join(sessions, id), { recursive: true });
    fs.symlinkSync(outside, path.join(sessions, id, 'events.jsonl'));
  }

  it('is read under the first name by path, whatever order the dirs are named in; the other name is listed', async () => {
    const { value } = await runJson<{ files: { path: string; session_id: string }[]; skipped: unknown[] }>(['sources', path.join(sessions, 's2'), path.join(sessions, 's1')]);
    expect(value.files.map((f) => [f.path, f.session_id])).toEqual([['s1/events.jsonl', 's1']]);
    expect(value.skipped).toEqual([{ path: 's2/events.jsonl', reason: 'another name for events.jsonl of session directory s1' }]);
  });

  it('loaded under one session first, belongs to the owner a later load finds (its rows are read again as that session\'s)', async () => {
    const db = path.join(work.dir, 'owner.duckdb');
    expect((await runCli(['load', path.join(sessions, 's2'), '--db', db, '--quiet'])).code).toBe(0);
    expect(await stateOf(db)).toEqual(['file s2 events.jsonl', 'session s2 3']);
    const run = await runJson<{ reloaded: number }[]>(['load', home, '--db', db]);
    expect(run.value[0]).toMatchObject({ files: 1, loaded: 0, reloaded: 1, files_in_db: 1 });
    expect(await stateOf(db)).toEqual(['file s1 trajectories/sessions/s1/events.jsonl', 'session s1 3', 'session s2 0']);
  });
});

describe('a link under another name, sorting before the file it leads to', () => {
  it('is skipped as another name for it: the file is read under its own name, kind and session', async () => {
    const home = path.join(work.dir, 'other-name');
    const sessions = path.join(home, 'trajectories', 'sessions');
    eventsFile(path.join(sessions, 'incident', 'events.jsonl'), 'incident');
    fs.mkdirSync(path.join(sessions, '00000000'));
    fs.symlinkSync('../incident/events.jsonl', path.join(sessions, '00000000', 'errors.jsonl'));
    fs.mkdirSync(path.join(home, 'tasks'));
    fs.symlinkSync('../trajectories/sessions/incident/events.jsonl', path.join(home, 'tasks', 'a0000000a.output'));
    const { value, run } = await runJson<{ files: { path: string; kind: string; session_id: string }[]; skipped: unknown[] }>(['sources', home]);
    expect(run.code).toBe(0);
    expect(value.files.map((f) => [f.path, f.kind, f.session_id])).toEqual([['trajectories/sessions/incident/events.jsonl', 'events', 'incident']]);
    expect(value.skipped).toEqual([
      { path: 'tasks/a0000000a.output', reason: 'another name for events.jsonl of session directory incident' },
      { path: 'trajectories/sessions/00000000/errors.jsonl', reason: 'another name for events.jsonl of session directory incident' },
    ]);
  });
});
