import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

// Homes are often put together with symbolic links: a linked session dir, a linked events.jsonl.
// Both are read as what they point to; a link to nothing is skipped and said to be one.
const SESSION = '20260815-091500-0badf00d';
const SOURCE = path.join(FIXTURES, 'malformed-lines', 'trajectories', 'sessions', SESSION);

describe('symbolic links inside a home', () => {
  const work = tempDir();
  afterAll(work.cleanup);
  const sessions = path.join(work.dir, 'home', 'trajectories', 'sessions');
  fs.mkdirSync(path.join(sessions, '20260815-091500-11111111'), { recursive: true });
  fs.symlinkSync(SOURCE, path.join(sessions, SESSION));
  fs.copyFileSync(path.join(SOURCE, 'events.jsonl'), path.join(work.dir, 'events-copy.jsonl'));
  fs.symlinkSync(path.join(work.dir, 'events-copy.jsonl'), path.join(sessions, '20260815-091500-11111111', 'events.jsonl'));
  fs.symlinkSync(path.join(work.dir, 'nowhere'), path.join(sessions, '20260815-091500-22222222'));

  it('reads a linked session dir and a linked events.jsonl, and skips a broken link with that reason', async () => {
    const { value, run } = await runJson<{ files: { path: string; valid: number; malformed: number }[]; skipped: unknown[] }>(['sources', path.join(work.dir, 'home')]);
    expect(run.code).toBe(0);
    expect(value.files.map((f) => [f.path, f.valid, f.malformed])).toEqual([
      [`trajectories/sessions/${SESSION}/events.jsonl`, 4, 6],
      ['trajectories/sessions/20260815-091500-11111111/events.jsonl', 4, 6],
    ]);
    expect(value.skipped).toEqual([{ path: 'trajectories/sessions/20260815-091500-22222222', reason: 'broken symbolic link' }]);
  });

  it('a home in which nothing can be read is an input error, exit 2, that names what was skipped', async () => {
    const empty = path.join(work.dir, 'empty');
    fs.mkdirSync(path.join(empty, 'trajectories', 'sessions', '20260815-091500-33333333'), { recursive: true });
    fs.writeFileSync(path.join(empty, 'trajectories', 'sessions', '20260815-091500-33333333', 'session.traj'), '');
    expect(await runCli(['sources', empty])).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: ${empty} holds no file trajaudit reads (1 entry skipped, first trajectories/sessions/20260815-091500-33333333/session.traj: not a format trajaudit reads); pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript\n`,
    });
  });

  it('the same file reached twice, through a link and directly, is read once', async () => {
    const twice = path.join(sessions, '20260815-091500-33333333');
    fs.mkdirSync(twice);
    fs.symlinkSync(path.join(work.dir, 'events-copy.jsonl'), path.join(twice, 'events.jsonl'));
    const { value } = await runJson<{ files: { path: string }[] }>(['sources', path.join(work.dir, 'home')]);
    expect(value.files.map((f) => f.path)).toEqual([`trajectories/sessions/${SESSION}/events.jsonl`, 'trajectories/sessions/20260815-091500-11111111/events.jsonl']);
    fs.rmSync(twice, { recursive: true });
  });

  it('a link to a session dir beside it (latest → …) is another name for that session, not a session', async () => {
    const latest = path.join(sessions, 'latest');
    fs.symlinkSync(path.join(sessions, '20260815-091500-11111111'), latest);
    try {
      const { value } = await runJson<{ files: { path: string; session_id: string }[]; skipped: { path: string; reason: string }[] }>(['sources', path.join(work.dir, 'home')]);
      expect(value.files.map((f) => [f.path, f.session_id])).toEqual([
        [`trajectories/sessions/${SESSION}/events.jsonl`, SESSION],
        ['trajectories/sessions/20260815-091500-11111111/events.jsonl', '20260815-091500-11111111'],
      ]);
      expect(value.skipped).toContainEqual({ path: 'trajectories/sessions/latest', reason: 'another name for session directory 20260815-091500-11111111' });
      const ids = (await runJson<{ session_id: string }[]>(['sql', 'SELECT session_id FROM sessions ORDER BY 1', path.join(work.dir, 'home')])).value;
      expect(ids).toEqual([{ session_id: SESSION }, { session_id: '20260815-091500-11111111' }]);
    } finally {
      fs.rmSync(latest);
    }
  });

  it('links to two different dirs of the same name are two sessions, under the links\' names', async () => {
    const two = path.join(work.dir, 'two');
    const listing = path.join(two, 'trajectories', 'sessions');
    fs.mkdirSync(listing, { recursive: true });
    for (const run of ['run-A', 'run-B']) {
      fs.mkdirSync(path.join(work.dir, `out-${run}`, 'session'), { recursive: true });
      fs.copyFileSync(path.join(SOURCE, 'events.jsonl'), path.join(work.dir, `out-${run}`, 'session', 'events.jsonl'));
      fs.symlinkSync(path.join(work.dir, `out-${run}`, 'session'), path.join(listing, run));
    }
    const rows = (await runJson<{ session_id: string; events: number }[]>(['sql', 'SELECT session_id, events FROM sessions ORDER BY 1', two])).value;
    expect(rows).toEqual([{ session_id: 'run-A', events: 4 }, { session_id: 'run-B', events: 4 }]);
  });

  it('a session dir or file named through a link is the session it points to', async () => {
    const latest = path.join(sessions, 'latest');
    fs.symlinkSync(path.join(sessions, '20260815-091500-11111111'), latest);
    try {
      const viaFile = (await runJson<{ session_id: string }[]>(['sql', 'SELECT DISTINCT session_id FROM events', path.join(latest, 'events.jsonl')])).value;
      expect(viaFile).toEqual([{ session_id: '20260815-091500-11111111' }]);
      const viaDir = (await runJson<{ files: { path: string; session_id: string }[] }>(['sources', latest])).value.files;
      expect(viaDir.map((f) => [f.path, f.session_id])).toEqual([['events.jsonl', '20260815-091500-11111111']]);
    } finally {
      fs.rmSync(latest);
    }
  });

  it('a link to a session dir beside it at the top of a case folder or in a trajectories dir is another name for it too, also when a renamed dir left it', async () => {
    // Session dirs beside a ledger (a case folder) and directly in trajectories/.
    const folder = path.join(work.dir, 'case');
    fs.mkdirSync(path.join(folder, 'trajectories'), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'home', 'usage-ledger.jsonl'), path.join(folder, 'usage-ledger.jsonl'));
    for (const dir of ['s1', 'trajectories/s2']) fs.cpSync(SOURCE, path.join(folder, dir), { recursive: true });
    const db = path.join(work.dir, 'case.duckdb');
    await runJson(['load', folder, '--db', db]);
    for (const dir of ['s1', 'trajectories/s2']) {
      fs.renameSync(path.join(folder, dir), path.join(folder, `${dir}-renamed`));
      fs.symlinkSync(`${path.basename(dir)}-renamed`, path.join(folder, dir));
    }
    const sessions = 'SELECT session_id, path, events FROM sessions ORDER BY 1';
    const expected = [{ session_id: 's1-renamed', path: 's1-renamed', events: 4 }, { session_id: 's2-renamed', path: 'trajectories/s2-renamed', events: 4 }];
    expect((await runJson(['sql', sessions, folder])).value).toEqual(expected);
    const skipped = (await runJson<{ skipped: { path: string; reason: string }[] }>(['sources', folder])).value.skipped;
    expect(skipped.filter((s) => /another name/.test(s.reason))).toEqual([
      { path: 's1', reason: 'another name for session directory s1-renamed' },
      { path: 'trajectories/s2', reason: 'another name for session directory s2-renamed' },
    ]);
    // A --db loaded before the renames says the same after a re-load.
    await runJson(['load', folder, '--db', db]);
    expect((await runJson(['sql', sessions, '--db', db])).value).toEqual(expected);
    expect((await runJson(['sources', '--db', db])).value).toEqual((await runJson(['sources', folder])).value);
  });
});
