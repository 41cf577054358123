import { describe, expect, it } from 'vitest';
import { JSON_COLUMNS, toTabular } from '../../../src/timeline/to-tabular.js';
import type { MergedRow } from '../../../src/timeline/timeline-rows.js';

const row = (ts: string | null, file: string, line: number): MergedRow => ({
  ts, source: 'events', file, line, event: 'X', agent: null, taskId: null, index: null, data: null, message: null,
});
const DIR = 'trajectories/sessions/s1/';

describe('toTabular', () => {
  const rows = [row('2026-08-10T02:14:05.118Z', `${DIR}events.jsonl`, 1), row(null, `${DIR}warn.log`, 3), row('2026-08-10T02:14:06.000Z', `${DIR}events.jsonl`, 2)];

  it('table: the date and dir every row shares are columns of their own (said once under the table), time and file:line the rest', () => {
    const t = toTabular(rows, 'table');
    expect(t.columns).toEqual(['date', 'dir', 'time', 'delta_ms', 'source', 'file:line', 'event', 'agent', 'index', 'summary']);
    expect(t.rows.map((r) => [r.date, r.dir, r.time, r['file:line']])).toEqual([
      ['2026-08-10', DIR, '02:14:05.118Z', 'events.jsonl:1'],
      ['2026-08-10', DIR, null, 'warn.log:3'],
      ['2026-08-10', DIR, '02:14:06.000Z', 'events.jsonl:2'],
    ]);
  });

  it('table: whole times and paths when the rows span two dates or dirs, or there is one row', () => {
    const spread = toTabular([rows[0], row('2026-08-11T00:00:00.000Z', 'other/events.jsonl', 1)], 'table');
    expect(spread.columns[0]).toBe('time');
    expect(spread.rows[1]).toMatchObject({ time: '2026-08-11T00:00:00.000Z', 'file:line': 'other/events.jsonl:1' });
    expect(toTabular(rows.slice(0, 1), 'table').rows[0]).toMatchObject({ time: '2026-08-10T02:14:05.118Z', 'file:line': `${DIR}events.jsonl:1` });
  });

  it('md and json keep every value whole', () => {
    expect(toTabular(rows, 'md').rows[0]).toMatchObject({ time: '2026-08-10T02:14:05.118Z', 'file:line': `${DIR}events.jsonl:1` });
    expect(toTabular(rows, 'json').columns).toEqual(JSON_COLUMNS);
  });
});
