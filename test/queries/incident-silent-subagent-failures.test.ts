import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

// fixtures/home/EXPECTED.md §7 (the incident) and fixtures/incident-evidence-fallbacks/README.md.
const HOME = path.join(FIXTURES, 'home');
const FALLBACKS = path.join(FIXTURES, 'incident-evidence-fallbacks');
const FB = '20260901-200000-0badcafe';

describe('query silent-subagent-failures', () => {
  it('finds the two incident subagents that stopped 1 ms after a 429 with zero retries', async () => {
    const { value, run } = await runJson(['query', 'silent-subagent-failures', HOME]);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      { session_id: '20260819-183103-4f7a9c2e', agent_id: 'subagent-explore-a8q1w5n0c', agent_type: 'explore', task_id: 'a8q1w5n0c', start_ts: '2026-08-19T10:31:26.302Z', stop_ts: '2026-08-19T10:31:27.121Z', gap_ms: 1, retries: 0, error: 'LLM 错误: OpenAI API 错误: 429 limit_burst_rate' },
      { session_id: '20260819-183103-4f7a9c2e', agent_id: 'subagent-task-a0z6h3j8d', agent_type: 'task', task_id: 'a0z6h3j8d', start_ts: '2026-08-19T10:31:26.304Z', stop_ts: '2026-08-19T10:31:27.167Z', gap_ms: 1, retries: 0, error: 'LLM 错误: OpenAI API 错误: 429 limit_burst_rate' },
    ]);
    expect((await runJson(['query', 'silent-subagent-failures', HOME, '--param', 'max_gap_ms=0'])).value).toEqual([]);
  });

  it('falls back to an untagged error at the agent index, then to a warn.log ERROR line', async () => {
    const { value } = await runJson(['query', 'silent-subagent-failures', FALLBACKS]);
    expect(value).toEqual([
      { session_id: FB, agent_id: 'subagent-explore-b1c2d3e4f', agent_type: 'explore', task_id: 'b1c2d3e4f', start_ts: '2026-09-01T12:00:01.000Z', stop_ts: '2026-09-01T12:00:01.505Z', gap_ms: 5, retries: 0, error: 'HTTP 429' },
      { session_id: FB, agent_id: 'subagent-task-c2d3e4f5g', agent_type: 'task', task_id: 'c2d3e4f5g', start_ts: '2026-09-01T12:00:02.000Z', stop_ts: '2026-09-01T12:00:02.403Z', gap_ms: 3, retries: 0, error: '[AGENT_LOOP] LLM 错误: 503 Service Unavailable' },
    ]);
  });

  it('reports a longer gap only when max_gap_ms allows it; never one that retried or completed', async () => {
    const { value } = await runJson<{ agent_id: string; gap_ms: number }[]>(['query', 'silent-subagent-failures', FALLBACKS, '--param', 'max_gap_ms=1500']);
    expect(value.map((r) => [r.agent_id, r.gap_ms])).toEqual([
      ['subagent-explore-b1c2d3e4f', 5], ['subagent-task-c2d3e4f5g', 3], ['subagent-plan-d3e4f5g6h', 1500],
    ]);
    const narrow = await runJson<{ agent_id: string }[]>(['query', 'silent-subagent-failures', FALLBACKS, '--param', 'max_gap_ms=4', '--until', '2026-09-01T12:00:02Z']);
    expect(narrow.value.map((r) => r.agent_id)).toEqual([]);
  });
});

// Audit s9 D5: the evidence lies between the run's Start and its Stop by time, then line, as the pairing
// orders them; a row with the Stop's time written on the line after it comes after the Stop.
describe('query silent-subagent-failures: evidence at the Start or Stop time', () => {
  const id = '20260903-100000-d5d5d5d5';
  const agent = (t: string) => `subagent-explore-${t}`;
  const start = (ts: string, t: string) => event(id, 'SubagentStart', ts, { agent_id: agent(t), agent_type: 'explore' });
  const stop = (ts: string, t: string) => event(id, 'SubagentStop', ts, { agent_id: agent(t), agent_type: 'explore', status: 'error', elapsed_ms: 1000 });
  const error = (ts: string, t: string, text: string) =>
    event(id, 'StreamPhase', ts, { index: 10001, phase: 'error', agent_id: `${id}-sub-${t}`, attempt: 0, caller: 'sub-agent', error: text });

  it('a tagged error written after the Stop at its time is not the evidence; one written before the Start at its time is none', async () => {
    const tree = sessionTree(id, [
      // a00000001: the 429 300 ms before the Stop is the evidence, not the 500 written after the Stop at its ms.
      start('2026-09-03T02:00:00.000Z', 'a00000001'),
      error('2026-09-03T02:00:00.700Z', 'a00000001', '429 early'),
      stop('2026-09-03T02:00:01.000Z', 'a00000001'),
      error('2026-09-03T02:00:01.000Z', 'a00000001', '500 after the Stop'),
      // a00000002: its only error is at the Start's ms but on the line before it, so the run has no evidence.
      error('2026-09-03T02:00:05.000Z', 'a00000002', '429 before the Start'),
      start('2026-09-03T02:00:05.000Z', 'a00000002'),
      stop('2026-09-03T02:00:05.500Z', 'a00000002'),
    ]);
    try {
      const { value, run } = await runJson(['query', 'silent-subagent-failures', tree.home]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(value).toEqual([
        { session_id: id, agent_id: agent('a00000001'), agent_type: 'explore', task_id: 'a00000001', start_ts: '2026-09-03T02:00:00.000Z', stop_ts: '2026-09-03T02:00:01.000Z', gap_ms: 300, retries: 0, error: '429 early' },
      ]);
    } finally {
      tree.cleanup();
    }
  });
});
