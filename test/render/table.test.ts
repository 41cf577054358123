import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

// A terminal expands a tab to the next tab stop while the box counted it as one column: a tab in
// a cell (sql values, a malformed line's excerpt, a column name) is shown as \u0009 in the table,
// and left as it is in json and csv.
const work = tempDir();
afterAll(work.cleanup);
fs.mkdirSync(path.join(work.dir, 's1'));
fs.writeFileSync(path.join(work.dir, 's1/events.jsonl'), '{"event":"X","session_id":"s1","timestamp":"2026-07-30T10:31:03.412Z","data":{"cmd":"a\\tb"}}\n{"a":1\tbad}\n');

/** Every line of the box is as wide as its border once tabs are expanded (as `expand` does). */
function boxHolds(table: string): void {
  const expand = (line: string) => line.replace(/[^\t]*\t/g, (run) => run.slice(0, -1).padEnd(Math.ceil(run.length / 8) * 8));
  const lines = table.split('\n').filter((l) => /^[┌│├└]/.test(l)).map(expand);
  expect(new Set(lines.map((l) => [...l].length)).size).toBe(1);
}

describe('--format table shows a tab as \\u0009, so the box holds', () => {
  it('sql cells and column names', async () => {
    const run = await runCli(['sql', `SELECT line, data->>'cmd' AS cmd, 'z' AS "a\tz" FROM events`, work.dir, '--quiet']);
    expect(run.stdout).toContain('│ a\\u0009b │');
    expect(run.stdout).toContain('a\\u0009z');
    expect(run.stdout).not.toContain('\t');
    boxHolds(run.stdout);
  });

  it('the excerpt of a malformed line in sources', async () => {
    const run = await runCli(['sources', work.dir, '--section', 'problems']);
    expect(run.stdout).toContain('{"a":1\\u0009bad}');
    expect(run.stdout).not.toContain('\t');
    boxHolds(run.stdout);
  });

  it('json and csv keep the tab as it is', async () => {
    expect((await runJson<{ cmd: string }[]>(['sql', `SELECT data->>'cmd' AS cmd FROM events`, work.dir])).value).toEqual([{ cmd: 'a\tb' }]);
    expect((await runCli(['sql', `SELECT data->>'cmd' AS cmd FROM events`, work.dir, '--format', 'csv'])).stdout).toBe('cmd\r\na\tb\r\n');
  });
});

describe('an answer with no rows still shows its columns', () => {
  const empty = `SELECT 1 AS n, 'x' AS name WHERE false`;
  it('table: the header in its box and (0 rows), as psql', async () => {
    const run = await runCli(['sql', empty, work.dir, '--quiet']);
    expect([run.code, run.stdout]).toEqual([0, '┌───┬──────┐\n│ n │ name │\n├───┼──────┤\n└───┴──────┘\n(0 rows)\n']);
  });

  it('md: the header row and its rule, a valid GFM table', async () => {
    const run = await runCli(['sql', empty, work.dir, '--quiet', '--format', 'md']);
    expect([run.code, run.stdout]).toEqual([0, '| n | name |\n| --- | --- |\n']);
  });
});
