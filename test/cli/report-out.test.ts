// Where and how `report --out` writes: never inside the data it reads, into a stream as a stream
// (no chart files beside /dev/stdout), and a file whole or not at all.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURES, REPO, runCli, tempDir } from '../helpers/run-cli.js';

const WEEK_B = ['--since', '2026-08-17', '--until', '2026-08-24'];
const { dir, cleanup } = tempDir('trajaudit-report-out-');
afterAll(cleanup);

/** Every file under `root` with a digest of its bytes, to show that nothing in it changed. */
function contents(root: string): Record<string, string> {
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.lstatSync(path.join(root, f)).isFile());
  return Object.fromEntries(files.sort().map((f) => [f, createHash('sha1').update(fs.readFileSync(path.join(root, f))).digest('hex')]));
}

describe('report --out', async () => {
  const home = path.join(dir, 'home');
  fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
  const before = contents(home);

  it('inside a named input (also through a link) is refused before anything is written, exit 2, as a --db there is', async () => {
    const summary = path.join(home, 'trajectories', 'sessions', '3b9f02d6', 'session-summary.json');
    expect(await runCli(['report', home, ...WEEK_B, '--out', summary])).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: --out ${summary} is inside the input ${home}, and trajaudit never writes inside the data it reads; pass a --out path outside ${home}\n`,
    });
    fs.symlinkSync('home', path.join(dir, 'linked'));
    const sessions = path.join(dir, 'linked', 'trajectories', 'sessions');
    const html = path.join(home, 'trajectories', 'sessions', 'report.html');
    expect(await runCli(['report', sessions, ...WEEK_B, '--out', html])).toMatchObject({ code: 2, stdout: '' });
    expect(contents(home)).toEqual(before);
  });

  it('whose chart file would go through a link into a named input is refused before the report is written', async () => {
    const out = path.join(dir, 'charts');
    fs.mkdirSync(out);
    const summary = path.join(home, 'trajectories', 'sessions', '3b9f02d6', 'session-summary.json');
    fs.symlinkSync(summary, path.join(out, 'weekly-subagent-outcomes.svg'));
    const run = await runCli(['report', home, ...WEEK_B, '--out', path.join(out, 'weekly.md')]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      // Found once the report is made: the load's warnings come first.
      stderr: `${plain.stderr}trajaudit: --out ${path.join(out, 'weekly-subagent-outcomes.svg')} is inside the input ${home}, and trajaudit never writes inside the data it reads; pass a --out path outside ${home}\n`,
    });
    expect(fs.readdirSync(out)).toEqual(['weekly-subagent-outcomes.svg']);
    expect(contents(home)).toEqual(before);
  });

  it('that is the --db it reads, its .wal, or a link (soft or hard) to either is refused, exit 2, the database intact', async () => {
    const db = path.join(dir, 'own.duckdb');
    expect((await runCli(['load', home, '--db', db, '--quiet'])).code).toBe(0);
    const digest = () => createHash('sha1').update(fs.readFileSync(db)).digest('hex');
    const kept = digest();
    fs.symlinkSync(db, path.join(dir, 'soft.html'));
    fs.linkSync(db, path.join(dir, 'hard.html'));
    fs.symlinkSync(`${db}.wal`, path.join(dir, 'wal-link.md'));
    const cases: [string, string][] = [
      [db, 'the database'],
      [path.join(dir, '.', 'own.duckdb.wal'), "the database's log"],
      [path.join(dir, 'soft.html'), 'the database'],
      [path.join(dir, 'hard.html'), 'the database'],
      [path.join(dir, 'wal-link.md'), "the database's log"],
    ];
    for (const [out, what] of cases) {
      expect(await runCli(['report', '--db', db, ...WEEK_B, '--format', 'html', '--out', out])).toEqual({
        code: 2,
        stdout: '',
        stderr: `trajaudit: --out ${out} is ${what} (--db ${db}), which the report would overwrite; pass an --out path of its own, e.g. report.md\n`,
      });
    }
    // A chart file beside a Markdown report named as the database's link.
    fs.symlinkSync(db, path.join(dir, 'weekly-retries-per-day.svg'));
    const chart = await runCli(['report', '--db', db, ...WEEK_B, '--out', path.join(dir, 'weekly.md')]);
    expect(chart).toMatchObject({ code: 2, stdout: '' });
    expect(chart.stderr).toContain(`trajaudit: --out ${path.join(dir, 'weekly-retries-per-day.svg')} is the database (--db ${db})`);
    expect(fs.existsSync(path.join(dir, 'weekly.md'))).toBe(false);
    expect(digest()).toBe(kept);
    expect((await runCli(['sources', '--db', db, '--section', 'totals', '--format', 'json'])).code).toBe(0);
  });

  const plain = await runCli(['report', home, ...WEEK_B]);
  const plainHtml = await runCli(['report', home, ...WEEK_B, '--format', 'html']);
  const CHARTS = ['retries-per-day', 'subagent-outcomes', 'pollution-share'];

  it('/dev/stdout is stdout: the report as without --out, no chart files written into /dev', async () => {
    const strays = CHARTS.map((id) => `/dev/stdout-${id}.svg`);
    try {
      expect(await runCli(['report', home, ...WEEK_B, '--out', '/dev/stdout'])).toEqual(plain);
      expect(strays.filter((f) => fs.existsSync(f))).toEqual([]);
    } finally {
      for (const file of strays) fs.rmSync(file, { force: true }); // what root wrote there before
    }
  });

  it('a FIFO gets the report as a stream, with no chart files beside it', async () => {
    const fifoDir = path.join(dir, 'fifo');
    fs.mkdirSync(fifoDir);
    const fifo = path.join(fifoDir, 'report.md');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const got = path.join(dir, 'from-fifo.md');
    const reader = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', fifo, got]);
    const read = new Promise((resolve) => reader.once('exit', resolve));
    const run = await runCli(['report', home, ...WEEK_B, '--out', fifo]);
    if (run.code !== 0) reader.kill(); // it would wait for a writer for ever
    expect(run).toEqual({ ...plain, stdout: '' });
    await read;
    expect(fs.readFileSync(got, 'utf8')).toBe(plain.stdout);
    expect(fs.readdirSync(fifoDir)).toEqual(['report.md']);
  });

  const prlimit = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => fs.existsSync(p));
  it.skipIf(!prlimit)('a write cut short (a file-size limit, a full disk) leaves the file there as it was, exit 2', async () => {
    const out = path.join(dir, 'weekly.html');
    fs.writeFileSync(out, 'last week\'s report\n');
    // 24 KiB: enough for the load, not for the 46 KiB of HTML.
    const run = spawnSync(prlimit!, ['--fsize=24576', process.execPath, CLI, 'report', home, ...WEEK_B, '--out', out], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TZ: 'UTC' } });
    expect(plainHtml.stdout.length).toBeGreaterThan(24576);
    // The load's warnings are given as they are after a report written (they were dropped).
    expect(plainHtml.stderr).toMatch(/^trajaudit: \d+ lines in \d+ files could not be read;/);
    expect([run.status, run.stdout, run.stderr]).toEqual([2, '', `${plainHtml.stderr}trajaudit: cannot write ${out}: EFBIG; check --out\n`]);
    expect(fs.readFileSync(out, 'utf8')).toBe('last week\'s report\n');
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Without the limit, the same command replaces it whole, keeping its mode.
    fs.chmodSync(out, 0o600);
    expect(await runCli(['report', home, ...WEEK_B, '--out', out])).toEqual({ ...plainHtml, stdout: `${out}\n` });
    expect(fs.readFileSync(out, 'utf8')).toBe(plainHtml.stdout);
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
  });
});
