import { describe, expect, it } from 'vitest';
import { formatDelta, shapeSection } from '../../../src/report/shape.js';

describe('formatDelta', () => {
  it('signs the difference and keeps ratios to 4 decimals', () => {
    expect([formatDelta(5, 4), formatDelta(0, 2), formatDelta(3, 3), formatDelta(0.35, 0.1)]).toEqual(['+1', '-2', '0', '+0.25']);
  });
});

describe('shapeSection', () => {
  const now = { columns: ['type', 'events', 'agents'], rows: [{ type: 'retry', events: 5, agents: 3 }, { type: 'fallback', events: 1, agents: 1 }] };
  const before = { columns: ['type', 'events', 'agents'], rows: [{ type: 'retry', events: 4, agents: 0 }, { type: 'stream_stall', events: 2, agents: 0 }] };

  it('compare: matches rows by key, adds prev and Δ, and keeps a key seen only before as 0 now', () => {
    const { table, notes } = shapeSection({ kind: 'compare', keys: ['type'], compare: ['events'] }, now, before);
    expect(table.columns).toEqual(['type', 'events', 'events (prev)', 'Δ events', 'agents']);
    expect(table.rows).toEqual([
      { type: 'retry', events: 5, 'events (prev)': 4, 'Δ events': '+1', agents: 3 },
      { type: 'fallback', events: 1, 'events (prev)': 0, 'Δ events': '+1', agents: 1 },
      { type: 'stream_stall', events: 0, 'events (prev)': 2, 'Δ events': '-2', agents: 0 },
    ]);
    expect(notes).toEqual([]);
  });

  it('compare: a measure (a median) of a key seen only before is blank now, not 0', () => {
    const { table } = shapeSection({ kind: 'compare', keys: ['type'], compare: ['events'], measures: ['agents'] }, now, before);
    expect(table.rows[2]).toEqual({ type: 'stream_stall', events: 0, 'events (prev)': 2, 'Δ events': '-2', agents: null });
  });

  it('compare without a previous window says so instead of inventing deltas', () => {
    const { table, notes } = shapeSection({ kind: 'compare' }, now, null);
    expect(table.columns).toEqual(['type', 'events', 'agents']);
    expect(notes[0]).toMatch(/no time window/);
  });

  it('count-by: counts rows per value in both windows', () => {
    const rows = (vs: string[]) => ({ columns: ['verdict'], rows: vs.map((verdict) => ({ verdict })) });
    const { table } = shapeSection({ kind: 'count-by', column: 'verdict' }, rows(['split', 'collision', 'split']), rows(['clean', 'split']));
    expect(table.rows).toEqual([
      { verdict: 'clean', window: 0, previous: 1, 'Δ': '-1' },
      { verdict: 'collision', window: 1, previous: 0, 'Δ': '+1' },
      { verdict: 'split', window: 2, previous: 1, 'Δ': '+1' },
    ]);
  });

  it('list: shows the first rows, and counts and totals against the previous window', () => {
    const list = { columns: ['agent', 'retries', 'note'], rows: [1, 2, 3].map((i) => ({ agent: `a${i}`, retries: i, note: 'x' })) };
    const { table, notes } = shapeSection({ kind: 'list', limit: 2, columns: ['agent', 'retries'], totals: ['retries'] }, list, { ...list, rows: list.rows.slice(0, 1) });
    expect(table).toEqual({ columns: ['agent', 'retries'], rows: [{ agent: 'a1', retries: 1 }, { agent: 'a2', retries: 2 }] });
    expect(notes).toEqual([
      'rows: 3 (previous window 1, +2)',
      'total retries: 6 (previous window 1, +5)',
      'showing the first 2 of 3 rows; run the query for all of them',
    ]);
  });
});
