import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// DOUBLE columns (the ledgers' costs) and the ledgers' epoch-second `ts` take a value only when
// it is a JSON number a double holds: a string ("0.41", "NaN"), a boolean, an array, an object
// or 1e400 is NULL there, never coerced, and the record keeps what was written (docs/formats.md#conventions:
// one key, several types). The same rule as integer columns (non-integer-numbers.test.ts).
const HOME = path.join(FIXTURES, 'non-number-values');

const ledger = (session_id: string, ts: string | null, cost_usd: number | null, savings_usd: number | null, side_cost_usd: number | null) =>
  ({ session_id, ts, cost_usd, savings_usd, side_cost_usd });

const QUERY = `SELECT
  (SELECT list(struct_pack(session_id, ts, cost_usd, savings_usd, side_cost_usd) ORDER BY session_id) FROM usage_ledger) AS usage_ledger,
  (SELECT list(struct_pack(session_id, ts, cost_usd) ORDER BY session_id) FROM session_index) AS session_index,
  (SELECT list(ts ORDER BY line) FROM usage_ledger_rows) AS usage_ledger_rows,
  (SELECT list(ts ORDER BY line) FROM session_index_rows) AS session_index_rows,
  (SELECT list([record->>'ts', record->>'costUSD', record->>'sideCostUSD'] ORDER BY line) FROM usage_ledger_rows) AS kept`;

describe('fixtures/non-number-values: DOUBLE columns hold JSON numbers only', () => {
  it('costs and epoch-second times of the usage ledger and the session index', async () => {
    const { value, run } = await runJson<Record<string, unknown>[]>(['sql', QUERY, HOME]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const time = '2026-08-16T02:15:00.000Z';
    expect(value).toEqual([{
      // numbers (-0.0 is 0); strings; booleans and null; an array, an object and 1e400; exponents
      usage_ledger: [
        ledger('a-numbers', time, 0.4128, 1, 0),
        ledger('b-strings', null, null, null, null),
        ledger('c-booleans', null, null, null, null),
        ledger('d-others', null, null, null, null),
        ledger('e-exponents', '2026-08-16T02:15:00.500Z', 0.41, 100, -0.0025),
      ],
      // a number; "0.41"; true; 1e400 and -1e400 (not Infinity)
      session_index: [
        { session_id: 'a-number', ts: time, cost_usd: 0.41 },
        { session_id: 'b-string', ts: null, cost_usd: null },
        { session_id: 'c-boolean', ts: null, cost_usd: null },
        { session_id: 'd-huge', ts: null, cost_usd: null },
      ],
      usage_ledger_rows: [time, null, null, null, '2026-08-16T02:15:00.500Z'],
      session_index_rows: [time, null, null, null],
      kept: [['1786846500', '0.4128', '-0.0'], ['1786846500', '0.41', 'NaN'], ['true', 'true', null], ['[1786846500]', '[0.41]', '1e400'], ['1786846500.5', '0.41', '-0.0025']],
    }]);
  });
});
