import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

// fixtures/incident-restarted-subagent/README.md: a subagent id started again after it stopped.
const HOME = path.join(FIXTURES, 'incident-restarted-subagent');

describe('a subagent started again after it stopped', () => {
  it('silent-subagent-failures: the error Stop ends the run that retried, not the Start written after it', async () => {
    const { value, run } = await runJson(['query', 'silent-subagent-failures', HOME]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(value).toEqual([]);
  });

  it('retry-budget: the deadline runs from the Start of the run that ran out, not the first Start', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['query', 'retry-budget', HOME, '--session', 'eeee0008']);
    expect(value).toEqual([{
      session_id: '20260820-100000-eeee0008', agent_id: 'subagent-plan-a00000004', start_ts: '2026-08-20T02:01:00.000Z', retries: 1, backoff_ms: 1000,
      exhausted_ts: '2026-08-20T02:01:02.000Z', attempt: 2, delay_ms: 2000, remaining_ms: 3000, needed_ms: 7000,
      deadline_ms: 5000, backoff_share: 0.2, stop_status: 'error', stopped_by: 'time',
    }]);
  });

  it('subagent-starts pairs each run with its own Stop', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['query', 'subagent-starts', HOME]);
    expect(value.map((r) => [r.agent_type, r.starts, r.completed, r.error, r.never_stopped])).toEqual([['explore', 2, 1, 1, 0], ['plan', 2, 1, 1, 0]]);
  });

  it('retry-budget: one row per run, each with its own retries, backoff, deadline and Stop', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['query', 'retry-budget', HOME, '--session', 'dddd0004']);
    // The L1 run retried once and ended with the error Stop L4; the L5 run never retried.
    expect(value).toEqual([{
      session_id: '20260820-100000-dddd0004', agent_id: 'subagent-explore-a00000001', start_ts: '2026-08-20T02:00:01.000Z', retries: 1, backoff_ms: 200,
      exhausted_ts: null, attempt: null, delay_ms: null, remaining_ms: null, needed_ms: null, deadline_ms: null, backoff_share: null,
      stop_status: 'error', stopped_by: 'attempts',
    }]);
  });

  it('retry-budget: the backoff of an earlier run of the id is not set against the budget of the last one', async () => {
    const id = '20260819-120000-b0b0b0b0';
    const agent = `${id}-sub-a10101010`;
    const start = (ts: string) => event(id, 'SubagentStart', ts, { agent_id: 'subagent-task-a10101010', agent_type: 'task' });
    const stop = (ts: string, status: string, elapsed: number) => event(id, 'SubagentStop', ts, { agent_id: 'subagent-task-a10101010', agent_type: 'task', status, elapsed_ms: elapsed });
    const retry = (ts: string, attempt: number, delayMs: number) => event(id, 'RetryTelemetry', ts, { type: 'retry', model: 'm', attempt, delayMs, error: '429', phase: 'stream', discardedChars: 0, agentId: agent });
    const tree = sessionTree(id, [
      start('2026-08-19T04:00:00.000Z'), retry('2026-08-19T04:00:01.000Z', 1, 10000), retry('2026-08-19T04:00:12.000Z', 2, 10000),
      stop('2026-08-19T04:00:30.000Z', 'completed', 30000),
      start('2026-08-19T04:01:00.000Z'), retry('2026-08-19T04:01:01.000Z', 1, 1000),
      event(id, 'RetryTelemetry', '2026-08-19T04:01:02.000Z', { type: 'retry_budget_exhausted', model: 'm', attempt: 2, delayMs: 4000, remainingMs: 3000, error: '429', agentId: agent }),
      stop('2026-08-19T04:01:03.000Z', 'error', 3000),
    ]);
    try {
      const { value, run } = await runJson<Record<string, unknown>[]>(['query', 'retry-budget', tree.home]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const none = { exhausted_ts: null, attempt: null, delay_ms: null, remaining_ms: null, needed_ms: null, deadline_ms: null, backoff_share: null };
      expect(value).toEqual([
        { session_id: id, agent_id: 'subagent-task-a10101010', start_ts: '2026-08-19T04:01:00.000Z', retries: 1, backoff_ms: 1000,
          exhausted_ts: '2026-08-19T04:01:02.000Z', attempt: 2, delay_ms: 4000, remaining_ms: 3000, needed_ms: 9000, deadline_ms: 5000, backoff_share: 0.2,
          stop_status: 'error', stopped_by: 'time' },
        { session_id: id, agent_id: 'subagent-task-a10101010', start_ts: '2026-08-19T04:00:00.000Z', retries: 2, backoff_ms: 20000, ...none, stop_status: 'completed', stopped_by: null },
      ]);
    } finally {
      tree.cleanup();
    }
  });
});
