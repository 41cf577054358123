import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

// fixtures/home/EXPECTED.md §4, §8; fixtures/incident-evidence-fallbacks/README.md (agent D).
const S4 = '20260819-183103-4f7a9c2e';
const noBudget = { exhausted_ts: null, attempt: null, delay_ms: null, remaining_ms: null, needed_ms: null, deadline_ms: null, backoff_share: null };

describe('query retry-budget', () => {
  it('says P1 ran out of time, not attempts, and lists every agent that retried', async () => {
    const { value, run } = await runJson(['query', 'retry-budget', path.join(FIXTURES, 'home'), '--session', S4]);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      // 1500 + 6208 ms of backoff; next 16000 + 5000 > 14010 left; budget = (36.295 − 26.305) s + 14010 ms.
      { session_id: S4, agent_id: 'subagent-plan-ac5e1u4i6', start_ts: '2026-08-19T10:31:26.305Z', retries: 2, backoff_ms: 7708, exhausted_ts: '2026-08-19T10:31:36.295Z', attempt: 3, delay_ms: 16000, remaining_ms: 14010, needed_ms: 21000, deadline_ms: 24000, backoff_share: 0.321, stop_status: 'completed', stopped_by: 'time' },
      { session_id: S4, agent_id: null, start_ts: null, retries: 1, backoff_ms: 2000, ...noBudget, stop_status: null, stopped_by: null },
      { session_id: S4, agent_id: 'subagent-explore-a3f9k2m7p', start_ts: '2026-08-19T10:31:26.301Z', retries: 1, backoff_ms: 7979, ...noBudget, stop_status: 'completed', stopped_by: null },
      { session_id: S4, agent_id: 'subagent-task-ab4r7t2y9', start_ts: '2026-08-19T10:31:26.303Z', retries: 1, backoff_ms: 2000, ...noBudget, stop_status: 'completed', stopped_by: null },
    ]);
  });

  it('says attempts when a subagent stopped with error after retrying and had no budget row', async () => {
    const { value } = await runJson(['query', 'retry-budget', path.join(FIXTURES, 'incident-evidence-fallbacks')]);
    expect(value).toEqual([
      { session_id: '20260901-200000-0badcafe', agent_id: 'subagent-verify-e4f5g6h7i', start_ts: '2026-09-01T12:00:05.000Z', retries: 1, backoff_ms: 1000, ...noBudget, stop_status: 'error', stopped_by: 'attempts' },
    ]);
  });
});

// Audit s9 D3: a delay that is missing or not an integer counts as missing, so backoff_ms is unknown (NULL)
// when no counted retry of the run has one, not 0 ms; 0 stays for a run with no retry before its budget row.
describe('query retry-budget: retries with no known delay', () => {
  const id = '20260902-100000-d3d3d3d3';
  const task = (t: string) => `subagent-task-${t}`;
  const rt = (ts: string, t: string, data: Record<string, unknown>) =>
    event(id, 'RetryTelemetry', ts, { model: 'm', error: '429', agentId: `${id}-sub-${t}`, ...data });
  const start = (ts: string, t: string) => event(id, 'SubagentStart', ts, { agent_id: task(t), agent_type: 'task' });
  const stop = (ts: string, t: string) => event(id, 'SubagentStop', ts, { agent_id: task(t), agent_type: 'task', status: 'error', elapsed_ms: 9000 });
  const budget = (ts: string, t: string) => rt(ts, t, { type: 'retry_budget_exhausted', attempt: 3, delayMs: 4000, remainingMs: 1000 });

  it('NULL when none of the retries has an integer delayMs; the known ones summed; 0 with no retry', async () => {
    const tree = sessionTree(id, [
      start('2026-09-02T02:00:00.000Z', 'a00000001'), start('2026-09-02T02:00:00.000Z', 'a00000002'), start('2026-09-02T02:00:00.000Z', 'a00000003'),
      // a00000001: two retries, no delayMs and a string one, then out of time.
      rt('2026-09-02T02:00:01.000Z', 'a00000001', { type: 'retry', attempt: 1, phase: 'stream' }),
      rt('2026-09-02T02:00:02.000Z', 'a00000001', { type: 'retry', attempt: 2, delayMs: '300', phase: 'stream' }),
      budget('2026-09-02T02:00:05.000Z', 'a00000001'),
      // a00000002: one known delay beside a fraction.
      rt('2026-09-02T02:00:01.000Z', 'a00000002', { type: 'retry', attempt: 1, delayMs: 700, phase: 'stream' }),
      rt('2026-09-02T02:00:02.000Z', 'a00000002', { type: 'retry', attempt: 2, delayMs: 2.5, phase: 'stream' }),
      budget('2026-09-02T02:00:05.000Z', 'a00000002'),
      // a00000003: out of time before any retry.
      budget('2026-09-02T02:00:05.000Z', 'a00000003'),
      stop('2026-09-02T02:00:09.000Z', 'a00000001'), stop('2026-09-02T02:00:09.000Z', 'a00000002'), stop('2026-09-02T02:00:09.000Z', 'a00000003'),
    ]);
    try {
      const { value, run } = await runJson<Record<string, unknown>[]>(['query', 'retry-budget', tree.home]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const spent = (t: string, retries: number, backoff_ms: number | null, backoff_share: number | null) => ({
        session_id: id, agent_id: task(t), start_ts: '2026-09-02T02:00:00.000Z', retries, backoff_ms,
        exhausted_ts: '2026-09-02T02:00:05.000Z', attempt: 3, delay_ms: 4000, remaining_ms: 1000, needed_ms: 9000,
        deadline_ms: 6000, backoff_share, stop_status: 'error', stopped_by: 'time',
      });
      expect(value).toEqual([spent('a00000001', 2, null, null), spent('a00000002', 2, 700, 0.117), spent('a00000003', 0, 0, 0)]);
    } finally {
      tree.cleanup();
    }
  });
});
