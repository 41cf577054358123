// A load killed with SIGKILL at an arbitrary point leaves a database that is exactly some set of
// whole files (never part of one), and the next run completes it to what a clean load gives.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, runJson, tempDir } from '../helpers/run-cli.js';

const work = tempDir();
afterAll(() => work.cleanup());

function writeHome(root: string): void {
  for (let s = 0; s < 6; s += 1) {
    const id = `20260820-10000${s}-0000000${s}`;
    const dir = path.join(root, 'trajectories/sessions', id);
    fs.mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    for (let i = 0; i < 40_000; i += 1) {
      const ts = new Date(Date.UTC(2026, 7, 20, 2, 0, 0) + i * 37).toISOString();
      lines.push(JSON.stringify({ event: 'StreamPhase', session_id: id, timestamp: ts, data: { index: 10001, phase: 'sse_consuming', agent_id: `${id}-sub-a1234567${s}`, attempt: 1, note: 'x'.repeat(120) } }));
      if (i % 9973 === 0) lines.push('{"event":"Broken",}');
    }
    fs.writeFileSync(path.join(dir, 'events.jsonl'), `${lines.join('\n')}\n`);
  }
}

type FileRow = { path: string; lines: number; valid: number; malformed: number };
const ledger = async (db: string) => (await runJson<{ files: FileRow[] }>(['sources', '--db', db])).value.files;
const rowsPerFile = async (db: string) =>
  (await runJson<{ path: string; n: number }[]>(['sql', 'SELECT f.path, count(e.line) AS n FROM input_files f LEFT JOIN events e USING (file_id) GROUP BY 1 ORDER BY 1', '--db', db])).value;
const orphans = async (db: string) =>
  (await runJson<{ n: number }[]>(['sql', 'SELECT count(*) AS n FROM events WHERE file_id NOT IN (SELECT file_id FROM input_files)', '--db', db])).value[0].n;

describe('load interrupted by kill -9', () => {
  const home = path.join(work.dir, 'home');
  writeHome(home);

  it('keeps only whole files, and the next run completes the load', async () => {
    const clean = path.join(work.dir, 'clean.duckdb');
    const started = Date.now();
    await runJson(['load', home, '--db', clean]);
    const loadMs = Date.now() - started;
    const expected = await ledger(clean);
    expect(expected).toHaveLength(6);

    const committedCounts: number[] = [];
    for (const fraction of [0.2, 0.5, 0.8]) {
      const delayMs = Math.round(loadMs * fraction);
      const db = path.join(work.dir, `killed-${fraction}.duckdb`);
      // One file per commit, so that a kill can fall between committed files as well as inside one.
      const child = spawn(process.execPath, [CLI, 'load', home, '--db', db, '--quiet'], { stdio: 'ignore', env: { ...process.env, TRAJAUDIT_COMMIT_BYTES: '1' } });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      child.kill('SIGKILL');
      await exited;

      // Whatever was committed is whole: every file's rows match its ledger entry, no stray rows.
      // A kill before the first commit leaves no database, or one a query says holds no data.
      const query = await runCli(['sql', 'SELECT 1 AS one', '--db', db, '--format', 'csv']);
      const empty = query.code === 2 && /(does not exist|holds no trajaudit data)/.test(query.stderr);
      if (!empty) expect(query, `killed after ${delayMs} ms: ${query.stderr}`).toMatchObject({ code: 0, stdout: 'one\r\n1\r\n' });
      const committed = empty ? [] : await rowsPerFile(db);
      committedCounts.push(committed.length);
      // Until the next load completes it, every reader is told that this one did not finish.
      const unfinished = new RegExp(`the last load into ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\) did not finish: it was stopped before it had read every file, so answers miss the files it had not committed; run trajaudit load with the same paths and --db \\S+ to complete it\n`);
      if (!empty && committed.length < 6) expect(query.stderr).toMatch(unfinished);
      for (const row of committed) expect(row.n).toBe(expected.find((f) => f.path === row.path)!.valid);
      if (!empty) expect(await orphans(db)).toBe(0);

      await runJson(['load', home, '--db', db]);
      expect((await runCli(['sql', 'SELECT 1 AS one', '--db', db, '--format', 'csv'])).stderr).not.toMatch(/did not finish/);
      expect(await ledger(db)).toEqual(expected);
      expect((await rowsPerFile(db)).map((r) => r.n)).toEqual(expected.map((f) => f.valid));
    }
    // The kills landed mid-load: not every run had committed all six files.
    expect(committedCounts.some((n) => n < 6)).toBe(true);
  });

  it('through a --db link to a file not made yet: the log is the file\'s, so the next run reads what was committed', async () => {
    const dir = path.join(work.dir, 'linked');
    fs.mkdirSync(dir);
    fs.symlinkSync('k.duckdb', path.join(dir, 'link.duckdb'));
    const child = spawn(process.execPath, [CLI, 'load', home, '--db', path.join(dir, 'link.duckdb'), '--quiet'], { stdio: 'ignore', env: { ...process.env, TRAJAUDIT_COMMIT_BYTES: '1' } });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Killed once a first commit has reached a log, under whichever name DuckDB keeps it: the log
    // holds bytes, and a moment later its first commit is whole (a kill as the file appeared,
    // before the schema's commit was written, left a database with no tables; seen once in CI).
    const logs = () => fs.readdirSync(dir).filter((name) => name.endsWith('.wal'));
    const logged = () => logs().some((name) => fs.statSync(path.join(dir, name), { throwIfNoEntry: false })?.size);
    for (let waited = 0; !logged() && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGKILL');
    await exited;
    expect(logs()).toEqual(['k.duckdb.wal']);
    // What the log holds is read (the schema at least): the database is trajaudit's, not one "that holds no trajaudit data".
    const query = await runCli(['sql', 'SELECT count(*) >= 0 AS read FROM input_files', '--db', path.join(dir, 'link.duckdb'), '--format', 'csv']);
    expect([query.code, query.stdout]).toEqual([0, 'read\r\ntrue\r\n']);
  });
});
