import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

// Session dirs one or two levels deeper than sid-code puts them: an archive grouped by month (and
// by year and month), a session dir inside another, a home's tasks dir copied into a session dir.
// Nothing of a format trajaudit reads is skipped for being out of place; a session's own
// directories (tool-outputs/), and links to directories (which could lead round in a loop), still are.
const work = tempDir();
afterAll(work.cleanup);
const home = path.join(work.dir, 'archive');
const sessions = path.join(home, 'trajectories/sessions');

function session(rel: string): void {
  fs.mkdirSync(path.join(sessions, rel), { recursive: true });
  const id = path.basename(rel);
  fs.writeFileSync(path.join(sessions, rel, 'events.jsonl'), `${JSON.stringify({ event: 'SessionStart', session_id: id, timestamp: '2026-08-18T10:00:00.000Z', data: {} })}\n`);
}
for (const rel of ['2026-07/s-july', '2026-08/s-aug-1', '2026-08/s-aug-2', '2025/2025-12/s-dec', 'plain', 'plain/inner']) session(rel);
fs.mkdirSync(path.join(sessions, '2026-08/s-uploaded'));
fs.writeFileSync(path.join(sessions, '2026-08/s-uploaded/metadata.json'), '{}\n');
fs.mkdirSync(path.join(sessions, 'plain/tool-outputs'));
fs.writeFileSync(path.join(sessions, 'plain/tool-outputs/t1.txt'), 'a tool output\n');
fs.cpSync(path.join(FIXTURES, 'home/tasks'), path.join(sessions, 'plain/copied/tasks'), { recursive: true });
fs.symlinkSync('..', path.join(sessions, 'plain/up'));

describe('session dirs deeper than sid-code puts them', () => {
  it('are read as sessions, groups of them as sessions dirs; a tasks dir copied into a session dir is read', async () => {
    const { value, run } = await runJson<unknown[]>(['sql', 'SELECT session_id, path, events FROM sessions ORDER BY path', home]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(value).toEqual([
      { session_id: 's-dec', path: 'trajectories/sessions/2025/2025-12/s-dec', events: 1 },
      { session_id: 's-july', path: 'trajectories/sessions/2026-07/s-july', events: 1 },
      { session_id: 's-aug-1', path: 'trajectories/sessions/2026-08/s-aug-1', events: 1 },
      { session_id: 's-aug-2', path: 'trajectories/sessions/2026-08/s-aug-2', events: 1 },
      // A directory in a group is a session's, as in a sessions dir, even with nothing trajaudit reads in it.
      { session_id: 's-uploaded', path: 'trajectories/sessions/2026-08/s-uploaded', events: 0 },
      { session_id: 'plain', path: 'trajectories/sessions/plain', events: 1 },
      { session_id: 'inner', path: 'trajectories/sessions/plain/inner', events: 1 },
    ]);
    const tasks = await runJson<Array<{ n: number }>>(['sql', 'SELECT count(*) AS n FROM task_outputs', home]);
    expect(tasks.value).toEqual([{ n: fs.readdirSync(path.join(FIXTURES, 'home/tasks')).filter((f) => f.endsWith('.output')).length }]);
  });

  it('a tasks dir right inside a session dir is read, whether the home or the session dir is named', async () => {
    const own = tempDir();
    try {
      const dir = path.join(own.dir, 'home/trajectories/sessions/s1');
      fs.mkdirSync(path.join(dir, 'tasks'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'events.jsonl'), `${JSON.stringify({ event: 'SessionStart', session_id: 's1', timestamp: '2026-08-18T10:00:00.000Z', data: {} })}\n`);
      fs.writeFileSync(path.join(dir, 'tasks/a12345678.output'), 'out');
      for (const named of [path.join(own.dir, 'home'), dir]) {
        expect((await runJson<unknown[]>(['sql', 'SELECT task_id, bytes FROM task_outputs', named])).value).toEqual([{ task_id: 'a12345678', bytes: 3 }]);
        expect((await runJson<unknown[]>(['sources', named, '--section', 'skipped'])).value).toEqual([]);
      }
    } finally {
      own.cleanup();
    }
  });

  it('a group of groups named alone is read as a sessions dir', async () => {
    const { value, run } = await runJson<unknown[]>(['sql', 'SELECT session_id, path FROM sessions', path.join(sessions, '2025')]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(value).toEqual([{ session_id: 's-dec', path: '2025-12/s-dec' }]);
  });

  it('sources lists what is still skipped, with its reason', async () => {
    const run = await runCli(['sources', home, '--section', 'skipped', '--format', 'csv']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe([
      'path,reason',
      'trajectories/sessions/2026-08/s-uploaded/metadata.json,not a format trajaudit reads',
      'trajectories/sessions/plain/tool-outputs,directory not read (not a telemetry format)',
      'trajectories/sessions/plain/up,directory not read (not a telemetry format)',
      '',
    ].join('\r\n'));
  });
});

describe('two directories of one session in one load', () => {
  it('an archive copy beside the live dir, or a copy inside it: the one nearest the top is read, the others skipped', async () => {
    const root = path.join(work.dir, 'copies');
    const dir = (rel: string, events: number) => {
      fs.mkdirSync(path.join(root, 'trajectories/sessions', rel), { recursive: true });
      const lines = Array.from({ length: events }, (_, k) => JSON.stringify({ event: 'UserPromptSubmit', session_id: path.basename(rel), timestamp: `2026-08-18T10:00:0${k}.000Z`, data: {} }));
      fs.writeFileSync(path.join(root, 'trajectories/sessions', rel, 'events.jsonl'), `${lines.join('\n')}\n`);
    };
    dir('live', 3);
    dir('2026-08/live', 2);
    dir('other', 1);
    dir('other/other', 1);
    const { value } = await runJson<unknown[]>(['sql', 'SELECT session_id, path, events FROM sessions ORDER BY path', root]);
    expect(value).toEqual([
      { session_id: 'live', path: 'trajectories/sessions/live', events: 3 },
      { session_id: 'other', path: 'trajectories/sessions/other', events: 1 },
    ]);
    const sources = (await runJson<{ skipped: unknown[] }>(['sources', root, '--section', 'skipped'])).value;
    expect(sources).toEqual([
      { path: 'trajectories/sessions/2026-08/live', reason: 'another copy of session directory trajectories/sessions/live: a session is read once, from the copy nearest the top' },
      { path: 'trajectories/sessions/other/other', reason: 'another copy of session directory trajectories/sessions/other: a session is read once, from the copy nearest the top' },
    ]);
  });
});
