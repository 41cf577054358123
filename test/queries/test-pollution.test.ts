import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';
import { homeDb, queryRows, tasksDir } from './query-cli.js';

const SOURCE = path.join(FIXTURES, 'queries-test-pollution', 'tasks');
const MTIMES: Record<string, string> = {
  'a1t1t1t1t.output': '2026-08-01T00:00:00.000Z', // test, 24 B
  'a2t2t2t2t.output': '2026-08-03T12:00:00.000Z', // test, 30 B, no final newline
  'a3e3e3e3e.output': '2026-08-02T00:00:00.000Z', // empty
  'a4r4r4r4r.output': '2026-08-05T00:00:00.000Z', // real: 27 B, not the literal
  'a5r5r5r5r.output': '2026-08-06T00:00:00.000Z', // real: the literal twice
  'a6r6r6r6r.output': '2026-08-07T00:00:00.000Z', // real: matches, but 68 B
  's7s7s7s7s.output': '2026-08-10T00:00:00.000Z', // real: "OK\n"
};
const pick = (...names: string[]) => Object.fromEntries(names.map((n) => [n, MTIMES[n]]));

const row = (category: string, files: number, bytes: number, share: number | null, oldest_mtime: string | null, newest_mtime: string | null) =>
  ({ category, files, bytes, share, oldest_mtime, newest_mtime });
const none = (category: string, share: number | null = 0) => row(category, 0, 0, share, null, null);

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});
function home(mtimes: Record<string, string>): string {
  const made = tasksDir(SOURCE, mtimes);
  cleanups.push(made.cleanup);
  return made.dir;
}

describe('query test-pollution', () => {
  it('the bundled home: 7 test, 3 empty, 10 real of 20 files (EXPECTED.md §15; mtimes depend on the checkout)', async () => {
    const { rows, stderr } = await queryRows('test-pollution', [...(await homeDb())]);
    expect(stderr).toBe('');
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    for (const r of rows) {
      expect(r.oldest_mtime).toMatch(iso);
      expect(r.newest_mtime).toMatch(iso);
      expect(String(r.oldest_mtime) <= String(r.newest_mtime)).toBe(true);
    }
    expect(rows.map(({ oldest_mtime, newest_mtime, ...rest }) => rest)).toEqual([
      { category: 'test', files: 7, bytes: 186, share: 0.35 },
      { category: 'empty', files: 3, bytes: 0, share: 0.15 },
      { category: 'real', files: 10, bytes: 1663, share: 0.5 },
    ]);
  });

  it('every category with exact mtimes, shares to 4 decimals', async () => {
    const { rows, stderr } = await queryRows('test-pollution', [home(MTIMES)]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row('test', 2, 54, 0.2857, '2026-08-01T00:00:00.000Z', '2026-08-03T12:00:00.000Z'),
      row('empty', 1, 0, 0.1429, '2026-08-02T00:00:00.000Z', '2026-08-02T00:00:00.000Z'),
      row('real', 4, 146, 0.5714, '2026-08-05T00:00:00.000Z', '2026-08-10T00:00:00.000Z'),
    ]);
  });

  it('test: the whole content is one test literal (with or without the final newline) and at most 64 bytes', async () => {
    const { rows } = await queryRows('test-pollution', [home(pick('a1t1t1t1t.output', 'a2t2t2t2t.output'))]);
    expect(rows).toEqual([row('test', 2, 54, 1, '2026-08-01T00:00:00.000Z', '2026-08-03T12:00:00.000Z'), none('empty'), none('real')]);
  });

  it('empty: 0 bytes', async () => {
    const { rows } = await queryRows('test-pollution', [home(pick('a3e3e3e3e.output'))]);
    expect(rows).toEqual([none('test'), row('empty', 1, 0, 1, '2026-08-02T00:00:00.000Z', '2026-08-02T00:00:00.000Z'), none('real')]);
  });

  it('real: tiny but not the literal, the literal twice, the literal over 64 bytes, other text', async () => {
    const { rows } = await queryRows('test-pollution', [home(pick('a4r4r4r4r.output', 'a5r5r5r5r.output', 'a6r6r6r6r.output', 's7s7s7s7s.output'))]);
    expect(rows).toEqual([none('test'), none('empty'), row('real', 4, 146, 1, '2026-08-05T00:00:00.000Z', '2026-08-10T00:00:00.000Z')]);
  });

  it('--since/--until filter by mtime; all three rows stay, share is null when no file is left', async () => {
    const dir = home(MTIMES);
    expect((await queryRows('test-pollution', [dir, '--since', '2026-08-04'])).rows).toEqual([
      none('test'), none('empty'), row('real', 4, 146, 1, '2026-08-05T00:00:00.000Z', '2026-08-10T00:00:00.000Z'),
    ]);
    expect((await queryRows('test-pollution', [dir, '--until', '2026-08-04'])).rows).toEqual([
      row('test', 2, 54, 0.6667, '2026-08-01T00:00:00.000Z', '2026-08-03T12:00:00.000Z'),
      row('empty', 1, 0, 0.3333, '2026-08-02T00:00:00.000Z', '2026-08-02T00:00:00.000Z'),
      none('real'),
    ]);
    expect((await queryRows('test-pollution', [dir, '--since', '2027-01-01'])).rows).toEqual([none('test', null), none('empty', null), none('real', null)]);
  });

  it('a clean tasks dir (no .output left) is a census of 0 files, exit 0, named or inside a home', async () => {
    const temp = tempDir('trajaudit-tasks-');
    cleanups.push(temp.cleanup);
    const tasks = path.join(temp.dir, 'home', 'tasks');
    fs.mkdirSync(tasks, { recursive: true });
    const zero = [none('test', null), none('empty', null), none('real', null)];
    expect((await queryRows('test-pollution', [tasks])).rows).toEqual(zero);
    expect((await queryRows('test-pollution', [path.join(temp.dir, 'home')])).rows).toEqual(zero);
    // A stray file that is not a task output changes nothing: still a tasks dir, still 0 files.
    fs.writeFileSync(path.join(tasks, 'notes.txt'), 'mine\n');
    expect((await queryRows('test-pollution', [tasks])).rows).toEqual(zero);
  });

  it('an empty directory that is not a tasks dir is still an input error', async () => {
    const temp = tempDir('trajaudit-tasks-');
    cleanups.push(temp.cleanup);
    const elsewhere = path.join(temp.dir, 'outputs');
    fs.mkdirSync(elsewhere);
    expect(await runCli(['query', 'test-pollution', elsewhere])).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: ${elsewhere} holds no agent data (no sid-code events.jsonl, warn.log, errors.jsonl, usage-ledger.jsonl or tasks/*.output, no Claude Code transcript found); pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript\n`,
    });
  });

  it('patterns are RE2, as DuckDB runs them: (?i) works in the config; what RE2 refuses exits 2 naming the file and key', async () => {
    const dir = home(pick('s7s7s7s7s.output'));
    const config = path.join(dir, 'trajaudit.config.json');
    fs.writeFileSync(config, JSON.stringify({ tasks: { testPatterns: ['(?i)^ok\\n$'] } }));
    expect((await queryRows('test-pollution', [dir], { cwd: dir })).rows).toEqual([row('test', 1, 3, 1, '2026-08-10T00:00:00.000Z', '2026-08-10T00:00:00.000Z'), none('empty'), none('real')]);
    const hint = 'test patterns run in DuckDB as RE2, which has no backreferences such as \\1 and no lookahead or lookbehind, and takes flags as (?i); rewrite it in RE2 syntax';
    // JavaScript takes both; RE2 refuses a backreference, and the second pattern alone (joined
    // into one alternation it would pass as `(?:ok)|(?:a)|(b)`).
    fs.writeFileSync(config, JSON.stringify({ tasks: { testPatterns: ['^(o)\\1k$'] } }));
    // Found in the current directory, not through --config: the message says so, and names the line.
    const note = (command: string) => ` (${command} read this file because it is in the current directory; fix it, or pass --config F to use another file)`;
    const message = (command: string) => `trajaudit: ${config}:1: invalid value at "tasks.testPatterns[0]": not a valid RE2 regular expression (invalid escape sequence: \\1); ${hint}${note(command)}\n`;
    expect(await runCli(['query', 'test-pollution', dir], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: message('query') });
    expect(await runCli(['report', dir], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: message('report') });
    fs.writeFileSync(config, JSON.stringify({ tasks: { testPatterns: ['ok', 'a)|(b'] } }));
    expect(await runCli(['query', 'test-pollution', dir], { cwd: dir })).toEqual({
      code: 2, stdout: '', stderr: `trajaudit: ${config}:1: invalid value at "tasks.testPatterns[1]": not a valid RE2 regular expression (unexpected ): a)|(b); ${hint}${note('query')}\n`,
    });
    // A --param replaces the config's patterns: they are not judged then, the --param is.
    expect((await queryRows('test-pollution', [dir, '--param', 'test_pattern=(?i)^OK\\n$'], { cwd: dir })).rows[0]).toMatchObject({ category: 'test', files: 1 });
    expect(await runCli(['query', 'test-pollution', dir, '--param', 'test_pattern=(?<=a)b'], { cwd: dir })).toEqual({
      code: 2, stdout: '', stderr: `trajaudit: --param test_pattern=(?<=a)b: not a valid RE2 regular expression (invalid perl operator: (?<); ${hint}\n`,
    });
  });

  it('tasks.testPatterns in trajaudit.config.json adds patterns; --param test_pattern replaces them', async () => {
    const dir = home(MTIMES);
    fs.writeFileSync(
      path.join(dir, 'trajaudit.config.json'),
      JSON.stringify({ tasks: { testPatterns: ['^\\[轮次 \\d+\\] (spawn )?测试响应\\n?$', '^OK\\n$'] } }),
    );
    expect((await queryRows('test-pollution', [dir], { cwd: dir })).rows).toEqual([
      row('test', 3, 57, 0.4286, '2026-08-01T00:00:00.000Z', '2026-08-10T00:00:00.000Z'),
      row('empty', 1, 0, 0.1429, '2026-08-02T00:00:00.000Z', '2026-08-02T00:00:00.000Z'),
      row('real', 3, 143, 0.4286, '2026-08-05T00:00:00.000Z', '2026-08-07T00:00:00.000Z'),
    ]);
    expect((await queryRows('test-pollution', [dir, '--param', 'test_pattern=^OK\\n$'], { cwd: dir })).rows).toEqual([
      row('test', 1, 3, 0.1429, '2026-08-10T00:00:00.000Z', '2026-08-10T00:00:00.000Z'),
      row('empty', 1, 0, 0.1429, '2026-08-02T00:00:00.000Z', '2026-08-02T00:00:00.000Z'),
      row('real', 5, 197, 0.7143, '2026-08-01T00:00:00.000Z', '2026-08-07T00:00:00.000Z'),
    ]);
  });
});
