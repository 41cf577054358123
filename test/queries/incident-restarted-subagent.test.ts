import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// fixtures/incident-restarted-subagent/README.md: a subagent id started again after it stopped.
const HOME = path.join(FIXTURES, 'incident-restarted-subagent');

describe('a subagent started again after it stopped', () => {
  it('silent-subagent-failures: the error Stop ends the run that retried, not the Start written after it', () => {
    const { value, run } = runJson(['query', 'silent-subagent-failures', HOME]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(value).toEqual([]);
  });

  it('retry-budget: the deadline runs from the Start of the run that ran out, not the first Start', () => {
    const { value } = runJson<Record<string, unknown>[]>(['query', 'retry-budget', HOME, '--session', 'eeee0008']);
    expect(value).toEqual([{
      session_id: '20260820-100000-eeee0008', agent_id: 'subagent-plan-a00000004', retries: 1, backoff_ms: 1000,
      exhausted_ts: '2026-08-20T02:01:02.000Z', attempt: 2, delay_ms: 2000, remaining_ms: 3000, needed_ms: 7000,
      deadline_ms: 5000, backoff_share: 0.2, stop_status: 'error', stopped_by: 'time',
    }]);
  });

  it('subagent-starts pairs each run with its own Stop', () => {
    const { value } = runJson<Record<string, unknown>[]>(['query', 'subagent-starts', HOME]);
    expect(value.map((r) => [r.agent_type, r.starts, r.completed, r.error, r.never_stopped])).toEqual([['explore', 2, 1, 1, 0], ['plan', 2, 1, 1, 0]]);
  });
});
