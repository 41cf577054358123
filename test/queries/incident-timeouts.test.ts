import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// fixtures/home/EXPECTED.md §13: TimeoutFired by layer, TimeoutIneffective S3 L33 (idle_timeout),
// WatchdogKill S2 L82 (OLD, no TimeoutFired) and S3 L98 (HEAD, after TimeoutFired L97).
const layer = (name: string, over: object) => ({
  layer: name, fired: 1, main_loop: 0, subagent: 0, side: 0, agent_stream: 0, ineffective: 0, watchdog_kills: 0, sessions: 1, ...over,
});

describe('query timeouts', () => {
  it('counts each layer with its index namespace, ineffective timeouts and watchdog kills', async () => {
    const { value, run } = await runJson(['query', 'timeouts', path.join(FIXTURES, 'home')]);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      layer('idle_timeout', { fired: 2, main_loop: 2, ineffective: 1, sessions: 2 }),
      layer('agent_heartbeat_timeout', { agent_stream: 1 }),
      layer('content_progress_timeout', { main_loop: 1 }),
      layer('fallback_stream_timeout', { subagent: 1 }),
      layer('watchdog_kill', { main_loop: 1, watchdog_kills: 2, sessions: 2 }),
    ]);
  });

  it('puts a side-call timeout in side, and --until narrows to week A', async () => {
    expect((await runJson(['query', 'timeouts', path.join(FIXTURES, 'incident-evidence-fallbacks')])).value).toEqual([
      layer('fetch_absolute_timeout', { side: 1 }),
    ]);
    const weekA = (await runJson<{ layer: string; fired: number }[]>(['query', 'timeouts', path.join(FIXTURES, 'home'), '--until', '2026-08-17'])).value;
    expect(weekA.map((r) => [r.layer, r.fired])).toEqual([['content_progress_timeout', 1], ['idle_timeout', 1], ['watchdog_kill', 1]]);
  });
});
