import path from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixtureDb, runCli, runJson } from '../helpers/run-cli.js';

/** The cells of a table-format table, one array per row, each cell's lines joined by `join`. */
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

describe('table format: every cell whole on a pipe, fitted to the width', async () => {
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

  it('with COLUMNS=100 each row is one line of at most 100 columns: names whole, the free text cut with … from its start', async () => {
    const run = await runCli(await prose(), { env: { COLUMNS: '100' } });
    expect(run.code).toBe(0);
    for (const line of run.stdout.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(100);
    const cells = tableCells(run.stdout, () => 'a second line');
    expect(cells.map((row) => row[0])).toEqual(listed.map((q) => q.name));
    cells.forEach((row, i) => {
      for (const [shown, whole] of [[row[1], listed[i].description], [row[2], listed[i].params]]) {
        // Whole, or its start (cut at a word where one ends late enough) and …
        if (shown !== whole) expect(shown.endsWith('…') && whole.startsWith(shown.slice(0, -1).trimEnd()), `${shown} / ${whole}`).toBe(true);
      }
    });
    expect(run.stdout).toContain('…');
  });

  it('snapshot-attribution: six agent ids too wide for 120 columns make a record per block, each id whole on a line', async () => {
    const args = ['query', 'snapshot-attribution', path.join(FIXTURES, 'home'), '--session', '4f7a9c2e'];
    const { value } = await runJson<{ index: number; agent_ids: string }[]>(args);
    const ids = value.find((r) => r.index === 10001)!.agent_ids;
    expect(ids.split(', ')).toHaveLength(6);
    const wide = await runCli(args, { env: { COLUMNS: '' } });
    expect(wide.stdout).toContain(`│ ${ids} │`);
    // Narrow: expanded, the list broken after its commas only; read back, it is the same list.
    const narrow = await runCli(args, { env: { COLUMNS: '120' } });
    expect(narrow.stdout.startsWith('-[ RECORD 1 ]')).toBe(true);
    const lines = narrow.stdout.split('\n');
    const first = lines.findIndex((line) => line.startsWith('agent_ids '));
    const rest = lines.slice(first + 1).findIndex((line) => !line.startsWith('   '));
    const shown = lines.slice(first, first + 1 + rest).map((line) => line.split(' | ')[1]).join(' ');
    expect(shown).toBe(ids);
    for (const line of lines.slice(first, first + 1 + rest)) expect(stringWidth(line)).toBeLessThanOrEqual(120);
  });

  it('headers wrap after their underscores when the table is wider than the terminal; numbers are right-aligned', async () => {
    const run = await runCli(['sql', `SELECT 1 AS untagged_chunks_total, 'a b' AS tagged_rows_count`, path.join(FIXTURES, 'home'), '--quiet'], { env: { COLUMNS: '30' } });
    expect([run.code, run.stdout]).toEqual([0,
      '┌──────────────┬────────────┐\n' +
      '│    untagged_ │ tagged_    │\n' +
      '│ chunks_total │ rows_count │\n' +
      '├──────────────┼────────────┤\n' +
      '│            1 │ a b        │\n' +
      '└──────────────┴────────────┘\n' +
      '(1 row)\n']);
  });
});
