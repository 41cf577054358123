import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURES, REPO, runCli, tempDir } from '../helpers/run-cli.js';

// On a terminal, load shows a progress line on stderr (files, MiB, rate) and clears it when done;
// --quiet silences it, and a pipe never gets it (every other CLI test runs on pipes and asserts
// stderr whole). util-linux `script` gives the command a pseudo-terminal; stdout goes to a file,
// so what comes back through the terminal is stderr alone.
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!hasScript)('load on a terminal', () => {
  const work = tempDir();
  afterAll(work.cleanup);
  const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const onTerminal = (args: string[], { env = {}, columns = 0 }: { env?: Record<string, string>; columns?: number } = {}) => {
    const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
    const stty = columns ? `stty cols ${columns}; ` : '';
    const run = spawnSync('script', ['-qec', `${stty}${command} >${shellQuote(path.join(work.dir, 'stdout.txt'))}`, '/dev/null'], {
      cwd: REPO,
      env: { ...process.env, NO_COLOR: '1', TZ: 'UTC', ...env },
      encoding: 'utf8',
    });
    return { terminal: run.stdout, code: run.status };
  };

  it('shows files and MiB done of the total, the rate and the time left on one line it rewrites, growing only, and clears it before the summary', () => {
    const { terminal, code } = onTerminal(['load', path.join(FIXTURES, 'home'), '--db', path.join(work.dir, 'a.duckdb')]);
    expect(code).toBe(0);
    expect(terminal).toMatch(/^(\r\x1b\[2Kloading \d+\/36 files, \d+\.\d\/\d+\.\d MiB, \d+ MiB\/s(?:, \d+ s left)?)+\r\x1b\[2Ktrajaudit: 7 lines in 6 files could not be read; they are listed by `trajaudit sources`\r\n$/);
    const shown = [...terminal.matchAll(/loading (\d+)\/36 files, (\d+\.\d)\//g)].map((m) => [Number(m[1]), Number(m[2])]);
    shown.forEach(([files, mib], k) => k > 0 && expect([files >= shown[k - 1][0], mib >= shown[k - 1][1]]).toEqual([true, true]));
  });

  it('--quiet leaves only the summary: no progress, no notice of unreadable lines', () => {
    const { terminal, code } = onTerminal(['load', path.join(FIXTURES, 'home'), '--db', path.join(work.dir, 'b.duckdb'), '--quiet']);
    expect(code).toBe(0);
    expect(terminal).toBe('');
  });

  it('on a terminal that takes no escapes (TERM=dumb), rewrites the line with a carriage return and spaces', () => {
    const { terminal, code } = onTerminal(['load', path.join(FIXTURES, 'home'), '--db', path.join(work.dir, 'c.duckdb')], { env: { TERM: 'dumb' } });
    expect(code).toBe(0);
    expect(terminal).not.toContain('\x1b');
    expect(terminal).toMatch(/^(\r *\rloading \d+\/36 files, \d+\.\d\/\d+\.\d MiB, \d+ MiB\/s(?:, \d+ s left)?)+\r +\rtrajaudit: 7 lines in 6 files could not be read; they are listed by `trajaudit sources`\r\n$/);
  });

  it('report shows the section it is on, and clears the line before its own messages', () => {
    const { terminal, code } = onTerminal(['report', path.join(FIXTURES, 'home'), '--since', '2026-08-17', '--until', '2026-08-24', '--quiet']);
    expect(code).toBe(0);
    expect(terminal).toBe('');
    const shown = onTerminal(['report', '--db', path.join(work.dir, 'a.duckdb'), '--since', '2026-08-17', '--until', '2026-08-24']);
    expect(shown.code).toBe(0);
    const sections = [...shown.terminal.matchAll(/report: section (\d+) of (\d+), ([^\r]+)/g)].map((m) => [Number(m[1]), Number(m[2]), m[3]]);
    expect(sections[0]).toEqual([1, 12, 'Input coverage']);
    expect(sections.map(([n]) => n)).toEqual(sections.map((_, k) => k + 1));
    expect(shown.terminal.endsWith('\r\x1b[2K')).toBe(true);
  });

  // Seconds of work for DuckDB, whatever the data: a query that keeps it busy past the delay.
  const SLOW = 'SELECT count(*) AS n FROM range(500000000) t(i) WHERE i % 7 = 3';

  it('sql shows, from a second on, what runs and for how long, and clears the line before the answer; a quick query shows nothing', () => {
    const db = path.join(work.dir, 'a.duckdb');
    const slow = onTerminal(['sql', SLOW, '--db', db]);
    expect(slow.code).toBe(0);
    expect(slow.terminal).toMatch(/^(\r\x1b\[2Krunning the SQL statement … \d+\.\d s)+\r\x1b\[2K$/);
    const seconds = [...slow.terminal.matchAll(/… (\d+\.\d) s/g)].map((m) => Number(m[1]));
    expect(seconds[0]).toBeGreaterThanOrEqual(1);
    seconds.forEach((s, k) => k > 0 && expect(s).toBeGreaterThanOrEqual(seconds[k - 1]));
    expect(fs.readFileSync(path.join(work.dir, 'stdout.txt'), 'utf8')).toContain('│ 71428571 │');
    const quick = onTerminal(['query', 'retry-by-agent', '--db', db]);
    expect([quick.code, quick.terminal]).toEqual([0, '']);
  });

  it('sql on a pipe: no progress, however long the query runs', async () => {
    const run = await runCli(['sql', SLOW, '--db', path.join(work.dir, 'a.duckdb'), '--format', 'csv']);
    expect(run).toEqual({ code: 0, stdout: 'n\r\n71428571\r\n', stderr: '' });
  });

  it('is cut to a narrow terminal\'s width, so that it never wraps', () => {
    const { terminal, code } = onTerminal(['load', path.join(FIXTURES, 'home'), '--db', path.join(work.dir, 'd.duckdb')], { columns: 20 });
    expect(code).toBe(0);
    const lines = terminal.split('\r\x1b[2K').filter((line) => line.startsWith('loading'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.length === 19)).toBe(true);
  });
});
