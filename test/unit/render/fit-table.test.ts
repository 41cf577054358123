import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { columnKinds } from '../../../src/render/column-kind.js';
import { constantColumns } from '../../../src/render/constant-columns.js';
import { cut } from '../../../src/render/cut-text.js';
import { type ColumnNeeds, columnNeeds, fitColumns, frame, share, TEXT_FLOOR } from '../../../src/render/fit-columns.js';
import renderTable from '../../../src/render/table.js';
import { ExactNumber, type Tabular } from '../../../src/render/types.js';

const needs = (kind: ColumnNeeds['kind'], cells: number, header = 4): ColumnNeeds => ({ kind, header, headerPiece: header, cells, headerSteps: [] });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('columnKinds', () => {
  it('numbers, ids, paths and times are never cut; prose, JSON and blobs are free text', () => {
    const t: Tabular = {
      columns: ['n', 'big', 'session_id', 'path', 'ts', 'message', 'data', 'blob', 'event', 'empty'],
      rows: [
        { n: 1, big: new ExactNumber('123456789012345678901'), session_id: 'a-b', path: 'tasks/*.output (20 files)', ts: '2026-08-10T02:14:05.118Z', message: 'it failed twice', data: { a: 1 }, blob: 'x'.repeat(300), event: '[WARN] LLM', empty: null },
        { n: null, big: null, session_id: 'c-d', path: 'a/b.jsonl', ts: null, message: 'ok', data: null, blob: 'y', event: '[WARN] LLM', empty: null },
      ],
    };
    expect(columnKinds(t)).toEqual(['number', 'number', 'atom', 'atom', 'atom', 'text', 'text', 'text', 'atom', 'atom']);
  });

  it('a list of ids is an atom unless a quarter of its values read as prose', () => {
    const rows = (values: string[]) => ({ columns: ['x'], rows: values.map((x) => ({ x })) });
    expect(columnKinds(rows(['a', 'b', 'c', 'd', 'e one']))).toEqual(['atom']);
    expect(columnKinds(rows(['a', 'b', 'c', 'd one']))).toEqual(['text']);
    expect(columnKinds(rows(['{"a":1}']))).toEqual(['text']);
  });
});

describe('fitColumns', () => {
  it('keeps natural widths when they fit', () => {
    expect(fitColumns([needs('atom', 10), needs('text', 30)], 10 + 30 + frame(2))).toEqual([10, 30]);
  });

  it('narrows free text only, to the width exactly; ids and numbers keep their width', () => {
    const widths = fitColumns([needs('atom', 24), needs('number', 6), needs('text', 200), needs('text', 20)], 100)!;
    expect(widths.slice(0, 2)).toEqual([24, 6]);
    expect(sum(widths) + frame(4)).toBe(100);
    // The short text is shown whole; the long one takes the rest.
    expect(widths[3]).toBe(20);
  });

  it('is null (expanded) when the ids, numbers and text floors alone are wider', () => {
    expect(fitColumns([needs('atom', 40), needs('atom', 30)], 70)).toBeNull();
    expect(fitColumns([needs('atom', 50), needs('text', 100)], 50 + TEXT_FLOOR + frame(2) - 1)).toBeNull();
    expect(fitColumns([needs('atom', 50), needs('text', 100)], 50 + TEXT_FLOOR + frame(2))).toEqual([50, TEXT_FLOOR]);
  });

  it('wraps headers after their underscores, and unwraps them a step at a time as room allows', () => {
    const header = columnNeeds('number', 'untagged_chunks_total', ['1']);
    expect(header).toMatchObject({ header: 21, headerPiece: 9, cells: 1, headerSteps: [12, 21] });
    expect(fitColumns([header], 9 + frame(1))).toEqual([9]);
    expect(fitColumns([header], 13 + frame(1))).toEqual([12]);
  });

  it('share fills the columns that want least first, evenly, and returns what none wanted', () => {
    const widths = [0, 0, 0];
    expect(share(widths, [2, 100, 100], 20)).toBe(0);
    expect(widths).toEqual([2, 9, 9]);
    expect(share([0], [3], 10)).toBe(7);
  });
});

describe('cut', () => {
  it('reads only the start of a long text, and never splits a character', () => {
    const text = `${'a'.repeat(9)}👍🏽${'b'.repeat(1_000_000)}`;
    expect(cut(text, 12)).toBe(`${'a'.repeat(9)}👍🏽…`);
    expect(cut(text, 11)).toBe(`${'a'.repeat(9)}…`);
  });
});

describe('renderTable', () => {
  const t: Tabular = {
    columns: ['agent_id', 'retries', 'note', 'error'],
    rows: [
      { agent_id: 'subagent-verify-anf8fnmq6', retries: 12, note: '', error: 'the stream stalled after the first chunk and was retried' },
      { agent_id: 'main', retries: 3, note: null, error: null },
    ],
  };

  it('right-aligns numbers, shows NULL as NULL and an empty string as nothing', () => {
    expect(renderTable(t)).toBe(
      '┌───────────────────────────┬─────────┬──────┬──────────────────────────────────────────────────────────┐\n' +
      '│ agent_id                  │ retries │ note │ error                                                    │\n' +
      '├───────────────────────────┼─────────┼──────┼──────────────────────────────────────────────────────────┤\n' +
      '│ subagent-verify-anf8fnmq6 │      12 │      │ the stream stalled after the first chunk and was retried │\n' +
      '│ main                      │       3 │ NULL │ NULL                                                     │\n' +
      '└───────────────────────────┴─────────┴──────┴──────────────────────────────────────────────────────────┘\n' +
      '(2 rows)\n');
  });

  it('dims NULL on a colour terminal only, the box as wide as without colour; expanded too', () => {
    const plain = renderTable(t, { width: 66 });
    const colour = renderTable(t, { width: 66, color: true });
    expect(plain).not.toContain('\x1b');
    expect(colour).toContain('\x1b[2mNULL\x1b[22m');
    expect(colour.replace(/\x1b\[\d+m/g, '')).toBe(plain);
    expect(renderTable(t, { width: 40, color: true })).toContain('note     | \x1b[2mNULL\x1b[22m\n');
  });

  it('cuts the free text to the width, and keeps ids whole', () => {
    const lines = renderTable(t, { width: 66 }).split('\n');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(66);
    expect(lines[3]).toMatch(/^│ subagent-verify-anf8fnmq6 │      12 │      │ the stream… +│$/);
    expect(lines).toHaveLength(8);
  });

  it('is a record per block when the ids alone do not fit, each value whole, long text wrapped at spaces', () => {
    expect(renderTable(t, { width: 40 })).toBe(
      '-[ RECORD 1 ]--------------------------\n' +
      'agent_id | subagent-verify-anf8fnmq6\n' +
      'retries  | 12\n' +
      'note     |\n' +
      'error    | the stream stalled after the\n' +
      '         | first chunk and was retried\n' +
      '-[ RECORD 2 ]--------------------------\n' +
      'agent_id | main\n' +
      'retries  | 3\n' +
      'note     | NULL\n' +
      'error    | NULL\n' +
      '(2 rows)\n');
  });

  it('says once, under the table, the columns that are the same on every row', () => {
    const same: Tabular = { columns: ['n', 'source', 'agent'], rows: [{ n: 1, source: 'events', agent: null }, { n: 2, source: 'events', agent: null }] };
    expect(constantColumns(same)).toEqual(['source', 'agent']);
    expect(renderTable(same, { foldConstantColumns: true })).toBe('┌───┐\n│ n │\n├───┤\n│ 1 │\n│ 2 │\n└───┘\n(2 rows)\nsame on every row: source=events, agent=NULL\n');
    // One row, or every column the same: nothing is folded.
    expect(constantColumns({ ...same, rows: same.rows.slice(0, 1) })).toEqual([]);
    expect(constantColumns({ columns: ['source'], rows: same.rows })).toEqual([]);
    // NULL, '' and 'NULL' are three values.
    expect(constantColumns({ columns: ['x', 'n'], rows: [{ x: null, n: 1 }, { x: '', n: 2 }, { x: 'NULL', n: 3 }] })).toEqual([]);
  });
});
