import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

// fixtures/home/EXPECTED.md §8: wakes = ts + delayMs for waits and retries, ts for probe decisions.
const HOME = path.join(FIXTURES, 'home');
const S4 = '20260819-183103-4f7a9c2e';
const t = (s: string) => `2026-08-19T10:${s}Z`;
const counts = { entry_waits: 0, aligned_waits: 0, retries: 0, probes_granted: 0, probes_denied: 0, probe_decisions: null as string | null };
const one = (at: string, agent: string, wakes: number, over: Partial<typeof counts>) => ({
  session_id: S4, window_start: t(at), window_end: t(at), span_ms: 0, agents: 1, agent_ids: agent, wakes, ...counts, ...over,
});

describe('query cooldown-herd', () => {
  it('puts T1 and P1 in one 250 ms window at 35.618 and shows every other wake alone', async () => {
    const { value, run } = await runJson(['query', 'cooldown-herd', HOME, '--session', '4f7a9c2e']);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      one('31:27.158', 'subagent-plan-ac5e1u4i6', 1, { probes_granted: 1, probe_decisions: 'granted=1' }),
      one('31:28.659', 'subagent-plan-ac5e1u4i6', 1, { retries: 1 }),
      one('31:34.021', 'subagent-verify-a2g7l9s4v', 1, { probes_denied: 1, probe_decisions: 'slot_taken=1' }),
      { ...one('31:35.118', 'subagent-explore-a3f9k2m7p', 2, { aligned_waits: 1, retries: 1 }), window_end: t('31:35.119'), span_ms: 1 },
      {
        ...one('31:35.618', 'subagent-plan-ac5e1u4i6, subagent-task-ab4r7t2y9', 3, { entry_waits: 1, aligned_waits: 1, retries: 1 }),
        window_end: t('31:35.619'), span_ms: 1, agents: 2,
      },
      one('31:36.118', 'subagent-verify-a2g7l9s4v', 1, { entry_waits: 1 }),
      one('31:45.515', 'subagent-task-ab4r7t2y9', 1, { retries: 1 }),
      one('32:54.416', 'main', 1, { retries: 1 }),
    ]);
  });

  it('keeps only herds with min_agents=2, and a wider window merges E1 into them', async () => {
    const herds = (await runJson<{ window_start: string; agents: number; wakes: number }[]>(['query', 'cooldown-herd', HOME, '--param', 'min_agents=2'])).value;
    expect(herds.map((h) => [h.window_start, h.agents, h.wakes])).toEqual([[t('31:35.618'), 2, 3]]);
    const wide = (await runJson<{ window_start: string; window_end: string; agents: number }[]>(['query', 'cooldown-herd', HOME, '--param', 'min_agents=2', '--param', 'window_ms=500'])).value;
    expect(wide.map((h) => [h.window_start, h.window_end, h.agents])).toEqual([[t('31:35.118'), t('31:36.118'), 4]]);
  });
});

// Audit s9 D2, D4: a wake that cannot be placed falls in no window, rather than at its row time or alone.
describe('query cooldown-herd: wakes with no known time', () => {
  const id = '20260901-100000-c0c0c0c0';
  const rt = (ts: string | undefined, data: Record<string, unknown>) => event(id, 'RetryTelemetry', ts, { model: 'm', error: 'e', ...data });
  const sub = (task: string) => ({ agentId: `${id}-sub-${task}` });
  const run = async (events: ReturnType<typeof event>[], ...args: string[]) => {
    const tree = sessionTree(id, events);
    try {
      const { value, run } = await runJson<Record<string, unknown>[]>(['query', 'cooldown-herd', tree.home, ...args]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      return value;
    } finally {
      tree.cleanup();
    }
  };
  const alone = (at: string, agent: string, over: Partial<typeof counts>) => ({
    session_id: id, window_start: at, window_end: at, span_ms: 0, agents: 1, agent_ids: agent, wakes: 1, ...counts, ...over,
  });

  it('a retry or wait with no integer delayMs is not placed at its own time (as a 0 ms sleep)', async () => {
    const events = [
      // Wakes at 10:00:05.000 (ts + 5000): known.
      rt('2026-09-01T10:00:00.000Z', { type: 'shared_cooldown_wait', delayMs: 5000, remainingMs: 9000, ...sub('a00000001') }),
      // No delayMs, a string and a fraction: their wakes are unknown, and none sits at 10:00:05.000.
      rt('2026-09-01T10:00:05.000Z', { type: 'retry', attempt: 1, phase: 'stream' }),
      rt('2026-09-01T10:00:05.000Z', { type: 'retry', attempt: 1, delayMs: '300', phase: 'stream', ...sub('a00000002') }),
      rt('2026-09-01T10:00:05.000Z', { type: 'shared_cooldown_wait', attempt: 1, delayMs: 0.5, ...sub('a00000003') }),
      // An integer too large to add to a time (a garbled field): unknown too, not a failed query.
      rt('2026-09-01T10:00:05.000Z', { type: 'retry', attempt: 2, delayMs: 9300000000000000, phase: 'stream', ...sub('a00000004') }),
    ];
    expect(await run(events, '--param', 'min_agents=2')).toEqual([]);
    expect(await run(events)).toEqual([alone('2026-09-01T10:00:05.000Z', `${id}-sub-a00000001`, { entry_waits: 1 })]);
  });

  it('rows with no readable time fall in no window, not one window each with a null start', async () => {
    const events = [
      rt(undefined, { type: 'cooldown_probe', probeDecision: 'granted', ...sub('a00000001') }),
      rt('not a time', { type: 'cooldown_probe_denied', probeDecision: 'slot_taken', ...sub('a00000002') }),
      rt(undefined, { type: 'retry', attempt: 1, delayMs: 100, phase: 'stream' }),
      rt('2026-09-01T10:00:01.000Z', { type: 'cooldown_probe', probeDecision: 'granted', ...sub('a00000003') }),
    ];
    expect(await run(events)).toEqual([alone('2026-09-01T10:00:01.000Z', `${id}-sub-a00000003`, { probes_granted: 1, probe_decisions: 'granted=1' })]);
  });
});
