import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

// The machine's state (a file-size limit, too few file descriptors, a deleted working directory,
// TMPDIR naming a file, no home directory) is one line and exit 2; each was an internal error, exit 3.
let work: ReturnType<typeof tempDir>;
beforeEach(() => {
  work = tempDir();
});
afterEach(() => work.cleanup());

/** The CLI run by bash after `setup` (a ulimit, a cd), so that the limit or the state is the child's alone. */
function runAfter(setup: string, args: string[], env: Record<string, string | undefined> = {}) {
  const run = spawnSync('bash', ['-c', `${setup}; exec "$@"`, 'bash', process.execPath, CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', TZ: 'UTC', COLUMNS: '', ...env },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const oneLine = (stderr: string) => stderr.split('\n').length === 2 && !stderr.includes('This is a bug');

describe('the machine, not a bug: one line, exit 2', () => {
  it('a file-size limit hit by DuckDB (the --db) or by Node (a temp file)', () => {
    const db = path.join(work.dir, 'fb.db');
    const load = runAfter('ulimit -f 2000', ['load', path.join(FIXTURES, 'home'), '--db', db, '--quiet']);
    expect([load.code, oneLine(load.stderr)]).toEqual([2, true]);
    expect(load.stderr).toMatch(/^trajaudit: a file grew past the file-size limit \(.*Could not write file ".*fb\.db": File too large\): this load is committed, .*; raise the limit \(`ulimit -f`\), or put the --db file, --out or the temp directory \(TMPDIR, now .*\) elsewhere on a file system without a size cap \(FAT32 and exFAT stop at 4 GiB\), and run again\n$/);

    const sources = runAfter('ulimit -f 8', ['sources', path.join(FIXTURES, 'home'), '--format', 'json']);
    expect([sources.code, oneLine(sources.stderr)]).toEqual([2, true]);
    expect(sources.stderr).toMatch(/^trajaudit: a file grew past the file-size limit \(EFBIG: file too large, write\); raise the limit/);
  });

  it('too few file descriptors', () => {
    const run = runAfter('ulimit -n 96', ['check', path.join(FIXTURES, 'check-baseline')]);
    expect([run.code, oneLine(run.stderr)]).toEqual([2, true]);
    expect(run.stderr).toMatch(/^trajaudit: too many open files \(EMFILE: too many open files, open '.*'\); raise the limit on open files \(`ulimit -n`\), and run again\n$/);
  });

  it('the current directory deleted', () => {
    const gone = path.join(work.dir, 'gone');
    // Outside a git work tree, github's and SARIF's paths are relative to the current directory.
    const tree = path.join(work.dir, 'tree');
    fs.cpSync(path.join(FIXTURES, 'check-baseline'), tree, { recursive: true });
    for (const args of [['query', 'retry-telemetry', path.join(FIXTURES, 'home')], ['check', tree, '--format', 'github'], ['sources', 'fixtures/home']]) {
      fs.mkdirSync(gone, { recursive: true });
      expect(runAfter(`cd ${JSON.stringify(gone)} && rmdir "$PWD"`, args)).toEqual({
        code: 2,
        stdout: '',
        stderr: 'trajaudit: the current directory no longer exists; cd to an existing directory, and run again\n',
      });
    }
  });

  it('TMPDIR naming a file', async () => {
    const file = path.join(work.dir, 'afile');
    fs.writeFileSync(file, '');
    expect(await runCli(['sources', path.join(FIXTURES, 'home')], { env: { TMPDIR: file } })).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: the temp directory ${file} does not exist or cannot be written; set TMPDIR to a directory you can write\n`,
    });
  });

  it('no path and no home directory: HOME empty, or unset for a uid with no passwd entry', async () => {
    const advice = 'pass a path (e.g. a sid-code home) or set SID_CONFIG_DIR\n';
    expect(await runCli(['sources'], { env: { HOME: '', SID_CONFIG_DIR: '' } })).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: no input path given and no home directory to find ~/.sid-code in (HOME is set to an empty string); ${advice}`,
    });
    if (process.getuid?.() !== 0 || spawnSync('getent', ['passwd', '12345']).status === 0) return;
    const asStranger = spawnSync('setpriv', ['--reuid=12345', '--regid=12345', '--clear-groups', 'env', '-u', 'HOME', '-u', 'SID_CONFIG_DIR', process.execPath, CLI, 'sources'], {
      encoding: 'utf8',
      cwd: '/',
    });
    expect([asStranger.status, asStranger.stderr]).toEqual([
      2,
      `trajaudit: no input path given and no home directory to find ~/.sid-code in (HOME is unset and uid 12345 has no passwd entry); ${advice}`,
    ]);
  });

  it('a `~` nothing expanded (--db=~/x.db, --db=~, SID_CONFIG_DIR=~/.sid-code in an env file) is said as such, not "create directory ~"', async () => {
    expect(await runCli(['load', path.join(FIXTURES, 'home'), '--db=~/x.db'], { cwd: work.dir })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'trajaudit: --db ~/x.db: the shell did not expand `~` (it does not after `=` or in quotes); write $HOME instead\n',
    });
    // A bare `~` (its directory, the current one, exists) made a database file named `~` there.
    expect(await runCli(['load', path.join(FIXTURES, 'home'), '--db=~'], { cwd: work.dir })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'trajaudit: --db ~: the shell did not expand `~` (it does not after `=` or in quotes); write $HOME instead\n',
    });
    // So did `--db=~/x.db` once a directory named `~` had been made by mistake.
    fs.mkdirSync(path.join(work.dir, '~'));
    expect((await runCli(['load', path.join(FIXTURES, 'home'), '--db=~/x.db'], { cwd: work.dir })).code).toBe(2);
    fs.rmdirSync(path.join(work.dir, '~'));
    expect(await runCli(['sources'], { cwd: work.dir, env: { SID_CONFIG_DIR: '~/.sid-code' } })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'trajaudit: no input path given and SID_CONFIG_DIR=~/.sid-code starts with a `~` that nothing expanded; write $HOME (or the full path) instead, or pass a path\n',
    });
    expect(fs.readdirSync(work.dir)).toEqual([]);
  });
});
