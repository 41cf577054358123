import path from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixtureDb, runCli, runJson } from '../helpers/run-cli.js';

/** The cells of a table-format table, one array per row, each cell's wrapped lines joined by `join`. */
function tableCells(stdout: string, join: (a: string, b: string) => string): string[][] {
  const rows: string[][] = [];
  let header = true;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('├')) header = false;
    if (header || !line.startsWith('│')) continue;
    const cells = line.split('│').slice(1, -1).map((cell) => cell.trim());
    // A row's first line has its first cell filled (every column here has a value on each row).
    if (cells[0] !== '') rows.push(cells);
    else rows[rows.length - 1] = rows[rows.length - 1].map((cell, i) => (cells[i] === '' ? cell : join(cell, cells[i])));
  }
  return rows;
}

describe('table format: every cell in full, wrapped to the width', async () => {
  // Long prose cells: the canned queries' descriptions and parameters, as the rows of a query.
  const { value: listed } = await runJson<{ name: string; description: string; params: string }[]>(['queries']);
  const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const values = listed.map((q) => `(${quoted(q.name)}, ${quoted(q.description)}, ${quoted(q.params)})`).join(', ');
  const prose = async () => ['sql', `SELECT * FROM (VALUES ${values}) AS t(name, description, params) ORDER BY name`, ...(await fixtureDb('home'))];

  it('on a pipe every description is printed whole, one line per row', async () => {
    const run = await runCli(await prose(), { env: { COLUMNS: '' } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('...');
    expect(tableCells(run.stdout, (a, b) => `${a}\n${b}`)).toEqual(listed.map((q) => [q.name, q.description, q.params]));
  });

  it('with COLUMNS=100 no line is wider than 100 and the wrapped descriptions read back whole', async () => {
    const run = await runCli(await prose(), { env: { COLUMNS: '100' } });
    expect(run.code).toBe(0);
    for (const line of run.stdout.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(100);
    // Wrapped at spaces: the lines of a cell joined by one space are its text.
    expect(tableCells(run.stdout, (a, b) => `${a} ${b}`)).toEqual(listed.map((q) => [q.name, q.description, q.params]));
    expect(run.stdout.split('\n').length).toBeGreaterThan(listed.length * 5);
  });

  it('snapshot-attribution shows all six agent ids of the incident collision, not three and `...`', async () => {
    const args = ['query', 'snapshot-attribution', path.join(FIXTURES, 'home'), '--session', '4f7a9c2e'];
    const { value } = await runJson<{ index: number; agent_ids: string }[]>(args);
    const ids = value.find((r) => r.index === 10001)!.agent_ids;
    expect(ids.split(', ')).toHaveLength(6);
    const wide = await runCli(args, { env: { COLUMNS: '' } });
    expect(wide.stdout).toContain(`│ ${ids} │`);
    // Narrow: the ids are cut into pieces (at commas where they fit, else anywhere), none lost.
    const narrow = await runCli(args, { env: { COLUMNS: '120' } });
    expect(tableCells(narrow.stdout, (a, b) => (a.endsWith(',') ? `${a} ${b}` : a + b)).find((cells) => cells[1] === '10001')?.[3]).toBe(ids);
  });

  it('headers wrap too, after their underscores, when the table is wider than the terminal', async () => {
    const run = await runCli(['sql', `SELECT 1 AS untagged_chunks_total, 'a b' AS tagged_rows_count`, path.join(FIXTURES, 'home'), '--quiet'], { env: { COLUMNS: '30' } });
    expect([run.code, run.stdout]).toEqual([0,
      '┌──────────────┬────────────┐\n' +
      '│ untagged_    │ tagged_    │\n' +
      '│ chunks_total │ rows_count │\n' +
      '├──────────────┼────────────┤\n' +
      '│ 1            │ a b        │\n' +
      '└──────────────┴────────────┘\n' +
      '(1 row)\n']);
  });
});
