// The first ten minutes: --help says what each option takes, commander's usage errors are the
// contract's one line, `help X` knows X, and `report --out` takes its format from the name.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

const HOME = path.join(FIXTURES, 'home');
const WEEK = ['--since', '2026-08-17', '--until', '2026-08-24'];
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
const help = async (command: string) => (await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ');

describe('--help', () => {
  it('load says --db is required and where the paths default to', async () => {
    expect(await help('load')).toContain('--db <file> DuckDB database file to create or update (required)');
    expect(await help('load')).toContain('(default: $SID_CONFIG_DIR, else ~/.sid-code)');
  });

  it('repeatable options show no "(default: [])"; --watch says it is required', async () => {
    for (const command of ['query', 'timeline', 'check', 'leak-check']) expect(await help(command)).not.toContain('default: []');
    expect(await help('leak-check')).toContain('--watch <dir> directory to watch (required, repeatable)');
  });

  it('--around says what it accepts', async () => {
    expect(await help('timeline')).toContain('--around <time> centre on this time: an ISO date/time (2026-08-19T10:31:28Z), or a span back from now (30m, 2h, 1d)');
  });
});

describe("commander's usage errors are one trajaudit: line, exit 2", () => {
  it.each([
    [['query', 'timeouts', '--bogus'], "trajaudit: unknown option '--bogus'; run `trajaudit query --help` for usage\n"],
    [['timeline', 'x', '--formt', 'json'], "trajaudit: unknown option '--formt'; did you mean --format? run `trajaudit timeline --help` for usage\n"],
    [['quer'], "trajaudit: unknown command 'quer'; did you mean query? run `trajaudit --help` for usage\n"],
    [['query'], "trajaudit: missing required argument 'name'; run `trajaudit query --help` for usage\n"],
    [['load', HOME], "trajaudit: required option '--db <file>' not specified; run `trajaudit load --help` for usage\n"],
    [['report', '--format', 'pdf'], "trajaudit: option '--format <format>' argument 'pdf' is invalid. Allowed choices are md, html, json; run `trajaudit report --help` for usage\n"],
  ])('%j', async (args, message) => {
    expect(await runCli(args)).toEqual({ code: 2, stdout: '', stderr: message });
  });

  it('help NAME: an unknown name says so, with a did-you-mean; a known one prints its help', async () => {
    const names = 'load, sources, sql, queries, query, timeline, report, check, leak-check, help';
    expect(await runCli(['help', 'qurey'])).toEqual({ code: 2, stdout: '', stderr: `trajaudit: unknown command "qurey"; did you mean "query"? the commands are: ${names}\n` });
    expect(await runCli(['help', 'nonexist'])).toEqual({ code: 2, stdout: '', stderr: `trajaudit: unknown command "nonexist"; the commands are: ${names}\n` });
    const known = await runCli(['help', 'query']);
    expect([known.code, known.stderr]).toEqual([0, '']);
    expect(known.stdout).toMatch(/^Usage: trajaudit query \[options\] <name> \[paths\.\.\.\]/);
    expect((await runCli(['help'])).stdout).toMatch(/^Usage: trajaudit \[options\] \[command\]/);
  });
});

describe('report --out', () => {
  function outDir(): string {
    const t = tempDir('trajaudit-report-out-');
    cleanups.push(t.cleanup);
    return t.dir;
  }

  it('x.html (or .htm) without --format is HTML; --format still wins; another extension stays Markdown', async () => {
    const dir = outDir();
    const html = await runCli(['report', HOME, ...WEEK, '--out', path.join(dir, 'x.html')]);
    expect([html.code, html.stdout]).toEqual([0, `${path.join(dir, 'x.html')}\n`]);
    expect(fs.readFileSync(path.join(dir, 'x.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
    expect((await runCli(['report', HOME, ...WEEK, '--out', path.join(dir, 'y.HTM')])).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'y.HTM'), 'utf8')).toMatch(/^<!DOCTYPE html>/);
    expect((await runCli(['report', HOME, ...WEEK, '--out', path.join(dir, 'z.html'), '--format', 'md'])).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'z.html'), 'utf8')).toMatch(/^# trajaudit reliability report/);
    expect((await runCli(['report', HOME, ...WEEK, '--out', path.join(dir, 'w.txt')])).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'w.txt'), 'utf8')).toMatch(/^# trajaudit reliability report/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('w.txt-')).sort()).toEqual(['w.txt-pollution-share.svg', 'w.txt-retries-per-day.svg', 'w.txt-subagent-outcomes.svg']);
  });

  it('--out - is stdout, as without --out, and writes no file', async () => {
    const dir = outDir();
    for (const format of [[], ['--format', 'html']]) {
      const plain = await runCli(['report', HOME, ...WEEK, ...format], { cwd: dir });
      const dash = await runCli(['report', HOME, ...WEEK, ...format, '--out', '-'], { cwd: dir });
      expect(dash).toEqual(plain);
      expect(dash.code).toBe(0);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
