import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// fixtures/home/EXPECTED.md §4, §8; fixtures/incident-evidence-fallbacks/README.md (agent D).
const S4 = '20260819-183103-4f7a9c2e';
const noBudget = { exhausted_ts: null, attempt: null, delay_ms: null, remaining_ms: null, needed_ms: null, deadline_ms: null, backoff_share: null };

describe('query retry-budget', () => {
  it('says P1 ran out of time, not attempts, and lists every agent that retried', () => {
    const { value, run } = runJson(['query', 'retry-budget', path.join(FIXTURES, 'home'), '--session', S4]);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      // 1500 + 6208 ms of backoff; next 16000 + 5000 > 14010 left; budget = (36.295 − 26.305) s + 14010 ms.
      { session_id: S4, agent_id: 'subagent-plan-ac5e1u4i6', start_ts: '2026-08-19T10:31:26.305Z', retries: 2, backoff_ms: 7708, exhausted_ts: '2026-08-19T10:31:36.295Z', attempt: 3, delay_ms: 16000, remaining_ms: 14010, needed_ms: 21000, deadline_ms: 24000, backoff_share: 0.321, stop_status: 'completed', stopped_by: 'time' },
      { session_id: S4, agent_id: null, start_ts: null, retries: 1, backoff_ms: 2000, ...noBudget, stop_status: null, stopped_by: null },
      { session_id: S4, agent_id: 'subagent-explore-a3f9k2m7p', start_ts: '2026-08-19T10:31:26.301Z', retries: 1, backoff_ms: 7979, ...noBudget, stop_status: 'completed', stopped_by: null },
      { session_id: S4, agent_id: 'subagent-task-ab4r7t2y9', start_ts: '2026-08-19T10:31:26.303Z', retries: 1, backoff_ms: 2000, ...noBudget, stop_status: 'completed', stopped_by: null },
    ]);
  });

  it('says attempts when a subagent stopped with error after retrying and had no budget row', () => {
    const { value } = runJson(['query', 'retry-budget', path.join(FIXTURES, 'incident-evidence-fallbacks')]);
    expect(value).toEqual([
      { session_id: '20260901-200000-0badcafe', agent_id: 'subagent-verify-e4f5g6h7i', start_ts: '2026-09-01T12:00:05.000Z', retries: 1, backoff_ms: 1000, ...noBudget, stop_status: 'error', stopped_by: 'attempts' },
    ]);
  });
});
