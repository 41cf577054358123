import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/run-cli.js';
import { homeDb, queryRows } from './query-cli.js';

const S2 = '20260812-142207-8d3e61f0';
const S3 = '20260814-093015-c7a2e5f1';
const S4 = '20260819-183103-4f7a9c2e';
const S5 = '20260821-101500-b2d84e07';
const EDGES = path.join(FIXTURES, 'queries-subagent-edges');
const E1 = '20260901-120000-0a0a0001';

const row = (
  session_id: string, agent_id: string, task_id: string | null, agent_type: string | null, retries: number,
  budget_exhausted: number, cooldown_waits: number, fallbacks: number, streams_completed: number, stop_status: string | null,
) => ({ session_id, agent_id, task_id, agent_type, retries, budget_exhausted, cooldown_waits, fallbacks, streams_completed, stop_status });

describe('query retry-by-agent', () => {
  it('one row per (session, agentId) of the bundled home, zero retries included, retries desc then session, agent (EXPECTED.md §5)', async () => {
    const { rows, stderr } = await queryRows('retry-by-agent', [...(await homeDb())]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row(S4, 'subagent-plan-ac5e1u4i6', 'ac5e1u4i6', 'plan', 2, 1, 1, 1, 1, 'completed'),
      row(S4, 'subagent-explore-a3f9k2m7p', 'a3f9k2m7p', 'explore', 1, 0, 1, 0, 2, 'completed'),
      row(S4, 'subagent-task-ab4r7t2y9', 'ab4r7t2y9', 'task', 1, 0, 1, 0, 4, 'completed'),
      row(S2, 'subagent-explore-a4h8c2v6b', 'a4h8c2v6b', 'explore', 0, 0, 0, 0, 2, 'completed'),
      // A custom subagent has no task id: its stop names no agent, so its status stays unknown here.
      row(S3, 'subagent-custom-1786671164080', null, 'custom', 0, 0, 0, 0, 0, null),
      row(S3, 'subagent-verify-a5n2b8c1x', 'a5n2b8c1x', 'verify', 0, 0, 0, 0, 1, 'completed'),
      // The incident: two subagents that died 1 ms after a 429 without a single retry.
      row(S4, 'subagent-explore-a8q1w5n0c', 'a8q1w5n0c', 'explore', 0, 0, 0, 0, 0, 'error'),
      row(S4, 'subagent-task-a0z6h3j8d', 'a0z6h3j8d', 'task', 0, 0, 0, 0, 0, 'error'),
      row(S4, 'subagent-verify-a2g7l9s4v', 'a2g7l9s4v', 'verify', 0, 0, 1, 0, 2, 'completed'),
      row(S5, 'subagent-task-a9d4f7h1k', 'a9d4f7h1k', 'task', 0, 0, 0, 0, 1, null),
    ]);
  });

  it('--until counts only earlier RetryTelemetry rows and the agents started before it; stop_status still comes from the later Stop', async () => {
    const { rows } = await queryRows('retry-by-agent', [...(await homeDb()), '--session', '4f7a9c2e', '--until', '2026-08-19T10:31:30Z']);
    expect(rows).toEqual([
      row(S4, 'subagent-plan-ac5e1u4i6', 'ac5e1u4i6', 'plan', 2, 0, 1, 0, 0, 'completed'),
      row(S4, 'subagent-explore-a3f9k2m7p', 'a3f9k2m7p', 'explore', 1, 0, 1, 0, 0, 'completed'),
      row(S4, 'subagent-explore-a8q1w5n0c', 'a8q1w5n0c', 'explore', 0, 0, 0, 0, 0, 'error'),
      row(S4, 'subagent-task-a0z6h3j8d', 'a0z6h3j8d', 'task', 0, 0, 0, 0, 0, 'error'),
      row(S4, 'subagent-task-ab4r7t2y9', 'ab4r7t2y9', 'task', 0, 0, 0, 0, 0, 'completed'),
      row(S4, 'subagent-verify-a2g7l9s4v', 'a2g7l9s4v', 'verify', 0, 0, 0, 0, 0, 'completed'),
    ]);
    // Started after the window: not listed.
    const late = await queryRows('retry-by-agent', [...(await homeDb()), '--session', '4f7a9c2e', '--until', '2026-08-19T10:31:26.303Z']);
    expect(late.rows.map((r) => r.agent_id)).toEqual(['subagent-explore-a3f9k2m7p', 'subagent-explore-a8q1w5n0c']);
  });

  it('an agentId with no SubagentStart keeps its raw id; one without a task id has no task, type or status', async () => {
    const { rows, stderr } = await queryRows('retry-by-agent', [EDGES]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row(E1, 'subagent-explore-b1b1b1b1b', 'b1b1b1b1b', 'explore', 2, 0, 0, 0, 0, 'completed'),
      row(E1, `${E1}-sub-c2c2c2c2c`, 'c2c2c2c2c', 'task', 1, 0, 0, 0, 0, 'error'),
      row(E1, 'side-call-title', null, null, 0, 0, 0, 0, 1, null),
      row(E1, 'subagent-custom-1788235201000', null, 'custom', 0, 0, 0, 0, 0, null),
      row(E1, 'subagent-custom-1788235202000', null, 'custom', 0, 0, 0, 0, 0, null),
      row('20260902-120000-0b0b0002', 'subagent-task-d3d3d3d3d', 'd3d3d3d3d', 'task', 0, 0, 0, 0, 0, null),
    ]);
  });
});
