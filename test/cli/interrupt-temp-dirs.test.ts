// Ctrl-C or a SIGTERM in the middle of a load: the temp dirs holding copies of input data (the
// grown tail of an events.jsonl, DuckDB's spill) are removed, and the signal still ends the
// process; the next load completes what was interrupted.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runJson, tempDir } from '../helpers/run-cli.js';

const work = tempDir();
afterAll(work.cleanup);
const SESSION = '20260820-100000-00000001';
const home = path.join(work.dir, 'home');
const events = path.join(home, 'trajectories', 'sessions', SESSION, 'events.jsonl');
const base = path.join(work.dir, 'base.duckdb');

function appendEvents(from: number, count: number): void {
  const lines: string[] = [];
  for (let i = from; i < from + count; i += 1) {
    const timestamp = new Date(Date.UTC(2026, 7, 20, 10) + i).toISOString();
    lines.push(JSON.stringify({ event: 'StreamPhase', session_id: SESSION, timestamp, data: { index: i, phase: 'sse_consuming', note: 'x'.repeat(120) } }));
  }
  fs.appendFileSync(events, `${lines.join('\n')}\n`);
}

/** Starts a load of the grown home and sends `signal` once its copy of the new tail is in TMPDIR. */
async function interruptedLoad(signal: NodeJS.Signals, tmp: string, db: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; sawTail: boolean }> {
  const child = spawn(process.execPath, [CLI, 'load', home, '--db', db, '--quiet'], { stdio: 'ignore', env: { ...process.env, TMPDIR: tmp, NO_COLOR: '1', TZ: 'UTC' } });
  let sawTail = false;
  const poll = setInterval(() => {
    if (fs.readdirSync(tmp).some((d) => fs.existsSync(path.join(tmp, d, 'tail.jsonl')))) {
      sawTail = true;
      clearInterval(poll);
      child.kill(signal);
    }
  }, 2);
  const [code, ended] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  clearInterval(poll);
  return { code, signal: ended, sawTail };
}

describe('a load ended by a signal', () => {
  fs.mkdirSync(path.dirname(events), { recursive: true });
  appendEvents(0, 1000);

  it('leaves no temp dir behind, ends by that signal, and the next load completes it', async () => {
    expect((await runJson<{ loaded: number }[]>(['load', home, '--db', base])).value[0]).toMatchObject({ loaded: 1 });
    appendEvents(1000, 30_000);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const tmp = path.join(work.dir, `tmp-${signal}`);
      fs.mkdirSync(tmp);
      const db = path.join(work.dir, `${signal}.duckdb`);
      fs.copyFileSync(base, db);
      expect(await interruptedLoad(signal, tmp, db)).toEqual({ code: null, signal, sawTail: true });
      expect(fs.readdirSync(tmp)).toEqual([]);
      if (signal === 'SIGTERM') continue;
      expect((await runJson<{ appended: number }[]>(['load', home, '--db', db], { env: { TMPDIR: tmp } })).value[0]).toMatchObject({ appended: 1, files_in_db: 1 });
      expect((await runJson(['sql', 'SELECT count(*) AS n FROM events', '--db', db])).value).toEqual([{ n: 31_000 }]);
      expect(fs.readdirSync(tmp)).toEqual([]);
    }
  });
});
