import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// Integer columns take a value only when it is an integer (4, 4.0, 1e1, 6e0, -0.0): a fraction,
// a boolean, a string of digits or an array is NULL there, never coerced, and the
// row's JSON keeps the value (docs/formats.md#conventions: one key, several types).
const HOME = path.join(FIXTURES, 'non-integer-numbers');

// Every integer column of the fixture in one query: one CLI run per reader.
const QUERY = `SELECT
  (SELECT list([line, idx] ORDER BY line) FROM events) AS events,
  (SELECT list([line, idx] ORDER BY line) FROM error_records) AS errors,
  (SELECT list([line, "index", attempt, http_status, chunk_count, elapsed_ms] ORDER BY line) FROM stream_phases) AS stream_phases,
  (SELECT list([line, attempt, delay_ms, discarded_chars, discarded_thinking_chars, total_events, elapsed_ms, ttft_ms] ORDER BY line) FROM retry_telemetry) AS retry_telemetry,
  (SELECT list([elapsed_ms, input_tokens, output_tokens, turns]) FROM subagent_lifecycle) AS subagent_lifecycle,
  (SELECT list(real_errors) FROM session_summaries) AS session_summaries,
  (SELECT list([prompt_total, cache_hit, cache_write, uncached_input, output, duration_ms]) FROM usage_ledger) AS usage_ledger,
  (SELECT list([duration_ms, turns, real_errors, anomalies_count]) FROM session_index) AS session_index,
  (SELECT data->>'index' FROM events WHERE line = 1) AS kept`;

describe('fixtures/non-integer-numbers: integer columns hold integers only', () => {
  it.each([['direct', {}], ['staged', { TRAJAUDIT_READER: 'staged' }]])('through the %s reader', async (_reader, env) => {
    const { value, run } = await runJson<Record<string, unknown>[]>(['sql', QUERY, HOME], { env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(value).toEqual([{
      // index 4.7, true, "4", 4.0, 5; StreamPhase 1e1 and 5; RetryTelemetry and SubagentStop have none
      events: [[1, null], [2, null], [3, null], [4, 4], [5, 5], [6, 10], [7, 5], [8, null], [9, null], [10, null]],
      // index 5.5, 6
      errors: [[1, null], [2, 6]],
      // attempt 1.5; chunk_count "12" falls back to chunks 12; http_status "429"; elapsed_ms false
      stream_phases: [[6, 10, null, null, 12, null], [7, 5, 2, null, null, null]],
      // attempt "2", delayMs 500.5, discardedThinkingChars -0.0; elapsedMs 31877.25, ttftMs [2210]
      retry_telemetry: [[8, null, null, 0, 0, null, null, null], [9, null, null, null, null, 1183, null, null]],
      // input_tokens 88310.5, output_tokens "2214", turns 6e0
      subagent_lifecycle: [[71481, null, null, 6]],
      // real_errors 1.5
      session_summaries: [null],
      // promptTotal 1.9, cacheHit "831872", uncachedInput true, durationMs 1256000.0
      usage_ledger: [[null, null, 0, null, 18820, 1256000]],
      // duration_ms 1256000.5, turns "3", anomalies_count null
      session_index: [[null, null, 2, null]],
      kept: '4.7',
    }]);
  });
});
