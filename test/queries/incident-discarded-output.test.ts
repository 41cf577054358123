import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// fixtures/home/EXPECTED.md §14; StreamRestart S3 L28 (1843, thinking 410), S4 L120 (612), L157 (0).
describe('query discarded-output', () => {
  it('compares retry.discardedChars with StreamRestart.discarded_chars per session', async () => {
    const { value, run } = await runJson(['query', 'discarded-output', path.join(FIXTURES, 'home')]);
    expect(run.code).toBe(0);
    const old = { retry_discarded_chars: null, retry_discarded_thinking_chars: null, restarts: 0, restart_discarded_chars: 0, restart_discarded_thinking_chars: 0, unreported_chars: null };
    expect(value).toEqual([
      { session_id: '20260812-142207-8d3e61f0', retries: 1, ...old },
      { session_id: '20260814-093015-c7a2e5f1', retries: 2, retry_discarded_chars: 4053, retry_discarded_thinking_chars: 410, restarts: 1, restart_discarded_chars: 1843, restart_discarded_thinking_chars: 410, unreported_chars: 2210 },
      { session_id: '20260819-183103-4f7a9c2e', retries: 5, retry_discarded_chars: 612, retry_discarded_thinking_chars: 0, restarts: 2, restart_discarded_chars: 612, restart_discarded_thinking_chars: 0, unreported_chars: 0 },
      { session_id: '3b9f02d6', retries: 1, ...old },
    ]);
  });

  it('filters by time: week B holds only the incident session', async () => {
    const { value } = await runJson<{ session_id: string }[]>(['query', 'discarded-output', path.join(FIXTURES, 'home'), '--since', '2026-08-17']);
    expect(value.map((r) => r.session_id)).toEqual(['20260819-183103-4f7a9c2e']);
  });

  // fixtures/non-number-values: discardedChars 4.7, "40", 1e3 (thinking "4", true, [7]);
  // discarded_chars "300", 200.0, 0.5 (thinking 2.5, false, "1"). Only integers count, as in the
  // retry_telemetry view: TRY_CAST(->> AS BIGINT) rounded 4.7 and 0.5 and read "40" and "300".
  it('counts a key only when it holds an integer, by the rule of the views', async () => {
    const home = path.join(FIXTURES, 'non-number-values');
    const { value, run } = await runJson(['query', 'discarded-output', home]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(value).toEqual([{
      session_id: '20260816-111500-0dd5c0de', retries: 3, retry_discarded_chars: 1000, retry_discarded_thinking_chars: null,
      restarts: 3, restart_discarded_chars: 200, restart_discarded_thinking_chars: 0, unreported_chars: 800,
    }]);
    const view = await runJson(['sql', 'SELECT sum(discarded_chars) AS chars, sum(discarded_thinking_chars) AS thinking FROM retry_telemetry', home]);
    expect(view.value).toEqual([{ chars: 1000, thinking: null }]);
  });

  it('the rules are SQL macros for `trajaudit sql` too: json_integer and json_double take JSON', async () => {
    const sql = `SELECT list(json_integer(data->'discardedChars') ORDER BY line) AS integers,
      list(json_double(data->'discardedChars') ORDER BY line) AS doubles FROM events WHERE event = 'RetryTelemetry'`;
    const { value, run } = await runJson(['sql', sql, path.join(FIXTURES, 'non-number-values')]);
    expect(run.stderr).toBe('');
    expect(value).toEqual([{ integers: [null, null, 1000], doubles: [4.7, null, 1000] }]);
  });
});
