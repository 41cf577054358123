import { describe, expect, it } from 'vitest';
import { homeDb, queryRows } from './query-cli.js';

const row = (type: string, events: number, main_loop: number, subagent: number, sessions: number, agents: number) =>
  ({ type, events, main_loop, subagent, sessions, agents });

describe('query retry-telemetry', () => {
  it('counts every RetryTelemetry type of the bundled home (EXPECTED.md §4)', async () => {
    const { rows, stderr } = await queryRows('retry-telemetry', [...(await homeDb())]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row('stream_completed', 31, 18, 13, 5, 7),
      row('retry', 9, 5, 4, 4, 3),
      row('shared_cooldown_wait', 4, 0, 4, 1, 4),
      row('stream_stall', 3, 1, 2, 2, 1),
      row('stream_idle_timeout', 2, 2, 0, 2, 0),
      row('cooldown_probe', 1, 0, 1, 1, 1),
      row('cooldown_probe_denied', 1, 0, 1, 1, 1),
      row('fallback', 1, 0, 1, 1, 1),
      row('retry_budget_exhausted', 1, 0, 1, 1, 1),
      row('stream_content_progress_timeout', 1, 1, 0, 1, 0),
    ]);
  });

  it('--session keeps one session: the incident S4 (3 main-loop and 9 subagent stream_completed)', async () => {
    const { rows } = await queryRows('retry-telemetry', [...(await homeDb()), '--session', '20260819-183103-4f7a9c2e']);
    expect(rows).toEqual([
      row('stream_completed', 12, 3, 9, 1, 4),
      row('retry', 5, 1, 4, 1, 3),
      row('shared_cooldown_wait', 4, 0, 4, 1, 4),
      row('cooldown_probe', 1, 0, 1, 1, 1),
      row('cooldown_probe_denied', 1, 0, 1, 1, 1),
      row('fallback', 1, 0, 1, 1, 1),
      row('retry_budget_exhausted', 1, 0, 1, 1, 1),
      row('stream_idle_timeout', 1, 1, 0, 1, 0),
    ]);
  });
});
