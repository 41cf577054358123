import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

// Inputs a home can hold and a user can type that once gave wrong numbers or an internal error
// (audit by helper-15): glob characters in names, names that are not UTF-8, files that are not
// regular files, empty arguments, --db values that are not files, corrupt databases.
const WHAT_TO_PASS = 'pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript';
const MALFORMED = path.join(FIXTURES, 'malformed-lines', 'trajectories', 'sessions', '20260815-091500-0badf00d');
const OLD_SESSION = path.join(FIXTURES, 'home', 'trajectories', 'sessions', '20260812-142207-8d3e61f0');

interface FileRow { path: string; lines: number; valid: number; malformed: number }

describe('odd names and odd entries', () => {
  const work = tempDir();
  afterAll(work.cleanup);

  it('reads a path with glob characters as written, never a file its pattern matches', async () => {
    const sessions = path.join(work.dir, 'globs', 'trajectories', 'sessions');
    fs.mkdirSync(sessions, { recursive: true });
    fs.cpSync(OLD_SESSION, path.join(sessions, 's1'), { recursive: true }); // 84 lines
    for (const name of ['s[1]', 's*', 's?']) fs.cpSync(MALFORMED, path.join(sessions, name), { recursive: true }); // 12 lines each
    for (const reader of ['direct', 'staged']) {
      const { value, run } = await runJson<FileRow[]>(['sources', path.join(work.dir, 'globs'), '--section', 'files'], { env: { TRAJAUDIT_READER: reader } });
      expect(run.code).toBe(0);
      expect(value.filter((f) => f.path.endsWith('events.jsonl')).map((f) => [f.path, f.lines, f.valid, f.malformed])).toEqual([
        ['trajectories/sessions/s*/events.jsonl', 12, 4, 6],
        ['trajectories/sessions/s1/events.jsonl', 84, 83, 1],
        ['trajectories/sessions/s?/events.jsonl', 12, 4, 6],
        ['trajectories/sessions/s[1]/events.jsonl', 12, 4, 6],
      ]);
    }
  });

  it('lists entries it cannot open or read as skipped, with the true reason', async () => {
    const home = path.join(work.dir, 'entries');
    fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
    const bytes = (text: string) => Buffer.concat([Buffer.from(path.join(home, text)), Buffer.from([0xff])]);
    fs.writeFileSync(bytes('audit'), '');
    fs.mkdirSync(bytes('trajectories/sessions/3b9f'));
    fs.writeFileSync(bytes('tasks/a'), '');
    fs.writeFileSync(Buffer.concat([Buffer.from(path.join(home, 'tasks/a')), Buffer.from([0xfe])]), ''); // decodes as the same text as a\xFF
    expect(spawnSync('mkfifo', [path.join(home, 'tasks', 'f.output')]).status).toBe(0);
    fs.mkdirSync(path.join(home, 'trajectories/sessions/20260812-142207-8d3e61f0/heartbeat.txt'));
    // A link to a device is what it leads to: listed as a FIFO is, not as a format trajaudit does not read.
    fs.symlinkSync('/dev/null', path.join(home, 'tasks', 'null.output'));
    const { value, run } = await runJson<{ path: string; reason: string }[]>(['sources', home, '--section', 'skipped']);
    expect(run.code).toBe(0);
    const utf8 = 'its name is not valid UTF-8, so trajaudit cannot open it; rename it';
    expect(value).toEqual([
      { path: 'EXPECTED.md', reason: 'not a format trajaudit reads' },
      { path: 'audit\\xFF', reason: utf8 },
      { path: 'tasks/a\\xFE', reason: utf8 },
      { path: 'tasks/a\\xFF', reason: utf8 },
      { path: 'tasks/f.output', reason: 'not a regular file (a FIFO, socket or device)' },
      { path: 'tasks/null.output', reason: 'not a regular file (a FIFO, socket or device)' },
      { path: 'trajectories/sessions/20260812-142207-8d3e61f0/heartbeat.txt', reason: 'a directory where trajaudit reads a file of this name' },
      { path: 'trajectories/sessions/20260814-093015-c7a2e5f1/raw.jsonl', reason: 'not a format trajaudit reads' },
      { path: 'trajectories/sessions/20260814-093015-c7a2e5f1/session.traj', reason: 'not a format trajaudit reads' },
      { path: 'trajectories/sessions/20260819-183103-4f7a9c2e/tool-outputs', reason: 'directory not read (not a telemetry format)' },
      { path: 'trajectories/sessions/3b9f\\xFF', reason: utf8 },
    ]);
  });

  it('a sessions dir named directly stays one when a stray *.output file lies in it', async () => {
    const home = path.join(work.dir, 'stray');
    fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
    fs.writeFileSync(path.join(home, 'trajectories', 'sessions', 'build.output'), 'ok\n');
    const { value } = await runJson<{ sessions: number; events: number }[]>(['sql', 'SELECT (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM events) AS events', path.join(home, 'trajectories', 'sessions')]);
    expect(value).toEqual([{ sessions: 5, events: 413 }]);
  });

  it('a file replaced by a directory is gone: load says so', async () => {
    const home = path.join(work.dir, 'replaced');
    const db = path.join(work.dir, 'replaced.duckdb');
    fs.cpSync(path.join(FIXTURES, 'malformed-lines'), home, { recursive: true });
    expect((await runCli(['load', home, '--db', db, '--quiet'])).code).toBe(0);
    const events = path.join(home, 'trajectories', 'sessions', '20260815-091500-0badf00d', 'events.jsonl');
    fs.rmSync(events);
    fs.mkdirSync(events);
    fs.writeFileSync(path.join(home, 'trajectories', 'sessions', '20260815-091500-0badf00d', 'warn.log'), '');
    const run = await runCli(['load', home, '--db', db, '--quiet']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`trajaudit: 1 file in ${db} no longer exists on disk (trajectories/sessions/20260815-091500-0badf00d/events.jsonl); its rows are kept`);
  });
});

describe('arguments that are not what they look like: exit 2, one line', () => {
  const work = tempDir();
  afterAll(work.cleanup);
  const home = path.join(FIXTURES, 'home');

  it('an empty path (an unset variable) is not the current directory', async () => {
    expect(await runCli(['sources', ''])).toEqual({ code: 2, stdout: '', stderr: `trajaudit: an input path is empty (an unset variable?); ${WHAT_TO_PASS}\n` });
  });

  it('--db must name a file: not empty, not :memory:, not under a file', async () => {
    for (const db of ['', ':memory:']) {
      expect(await runCli(['load', home, '--db', db])).toEqual({
        code: 2,
        stdout: '',
        stderr: `trajaudit: --db ${JSON.stringify(db)} is not a file name; pass --db a path for the DuckDB database file (or leave --db out to work in memory)\n`,
      });
    }
    const file = path.join(work.dir, 'notes.txt');
    fs.writeFileSync(file, 'notes\n');
    expect(await runCli(['load', home, '--db', path.join(file, 'x.duckdb')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: --db ${path.join(file, 'x.duckdb')}: a directory on its path is a file; pass a path under a directory\n`,
    });
  });

  it('a file that is not a database is not called corrupt for its name, nor is a query that reads a missing file', async () => {
    const notDb = path.join(work.dir, 'checksums.duckdb');
    fs.writeFileSync(notDb, 'not a duckdb file ..........');
    const run = await runCli(['sql', 'SELECT 1', '--db', notDb]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^trajaudit: \S+checksums\.duckdb is not a DuckDB database trajaudit can open /);
    const good = path.join(work.dir, 'reads.duckdb');
    expect((await runCli(['load', home, '--db', good, '--quiet'])).code).toBe(0);
    const missing = await runCli(['sql', `SELECT * FROM read_csv('${path.join(work.dir, 'checksum.csv')}')`, '--db', good]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^trajaudit: the SQL statement failed: IO Error: No files found that match the pattern /);
  });

  it('a temp directory that does not exist is named, not an internal error', async () => {
    const gone = path.join(work.dir, 'no-such-tmp');
    expect(await runCli(['sources', home], { env: { TMPDIR: gone } })).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: the temp directory ${gone} does not exist or cannot be written; set TMPDIR to a directory you can write\n`,
    });
  });

  it('a corrupt database says so, for queries and loads alike (never "busy", never an internal error)', async () => {
    const good = path.join(work.dir, 'good.duckdb');
    expect((await runCli(['load', home, '--db', good, '--quiet'])).code).toBe(0);
    const size = fs.statSync(good).size;
    // Blocks of the ledger, which a load reads too (the first and the last), wherever the schema puts them.
    const { value: blocks } = await runJson<{ b: number }[]>(['sql', `SELECT DISTINCT block_id AS b FROM pragma_storage_info('input_files') WHERE block_id >= 0 ORDER BY b`, '--db', good]);
    for (const block of new Set([blocks[0].b, blocks.at(-1)!.b])) {
      const bad = path.join(work.dir, `bad-${block}.duckdb`);
      fs.copyFileSync(good, bad);
      const fd = fs.openSync(bad, 'r+');
      fs.writeSync(fd, Buffer.from('XXXXXXXX'), 0, 8, Math.min(12288 + block * 262144, size - 4096));
      fs.closeSync(fd);
      // A query that reads every column of the tables the blocks may belong to (a block holds one column's values).
      const everyTable = ['events', 'input_problems', 'input_files', 'warn_lines', 'error_records', 'skipped_inputs', 'session_dirs', 'usage_ledger_rows',
        'session_index_rows', 'session_summaries', 'heartbeats', 'task_outputs', 'trajaudit_meta'].map((t) => `SELECT count(DISTINCT r::VARCHAR) FROM ${t} r`).join(' UNION ALL ');
      // (A load reads the ledger for its notice; with --quiet and nothing changed it reads no row.)
      for (const args of [['sql', everyTable, '--db', bad], ['load', home, '--db', bad]]) {
        const run = await runCli(args);
        expect(run.code, `${args[0]}, block ${block}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toMatch(new RegExp(`^trajaudit: --db ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is corrupt \\(.*\\); restore it from a copy, or load into a new --db\\n$`));
      }
    }
  });
});
