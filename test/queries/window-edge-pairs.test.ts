import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

// A main-loop stream opened on Sunday 23:59:59.900 and answered on Monday 00:00:00.500, and a retry at
// 23:59:59.999 whose StreamRestart came 3 ms later: each pair straddles the weekly edge at
// 2026-08-17T00:00Z. A pair counts whole in the window of its first event, never half in each.
const ID = '20260817-075900-eeeeeeee';
const tree = sessionTree(ID, [
  event(ID, 'SessionStart', '2026-08-16T23:59:00.000Z', { source: 'startup' }),
  event(ID, 'BeforeModel', '2026-08-16T23:59:59.000Z', { index: 1 }),
  event(ID, 'HttpConnected', '2026-08-16T23:59:59.900Z', { index: 1, status: 200 }),
  event(ID, 'RetryTelemetry', '2026-08-16T23:59:59.999Z', { type: 'retry', model: 'm', attempt: 1, delayMs: 1000, error: 'x', phase: 'stream', discardedChars: 500, discardedThinkingChars: 0 }),
  event(ID, 'StreamRestart', '2026-08-17T00:00:00.002Z', { index: 2, reason: 'stream_error', attempt: 1, discarded_chars: 500, discarded_thinking_chars: 0 }),
  event(ID, 'AfterModelRaw', '2026-08-17T00:00:00.500Z', { index: 1 }),
  // A second stream wholly in the second week, and a subagent stream whose HttpConnected sits between
  // them: it is no main-loop stream, so it must not take the main loop's AfterModelRaw.
  event(ID, 'HttpConnected', '2026-08-18T10:00:00.000Z', { index: 2, status: 200 }),
  event(ID, 'HttpConnected', '2026-08-18T10:00:00.100Z', { index: 10001, status: 200 }),
  event(ID, 'AfterModelRaw', '2026-08-18T10:00:01.000Z', { index: 2 }),
]);
afterAll(tree.cleanup);

const WEEK_A = ['--since', '2026-08-10', '--until', '2026-08-17'];
const WEEK_B = ['--since', '2026-08-17', '--until', '2026-08-24'];
const ghosts = (http: number, raw: number, main: number, sub: number) => ({
  session_id: ID, http_connected: http, after_model_raw: raw, ghost_streams: http - raw, main_http: main, main_ghosts: main - raw, subagent_ghosts: sub, side_ghosts: 0,
});

describe('pairs that straddle a window edge', () => {
  it('ghost-streams: a stream counts in the window it was opened in, never as -1 and +1', async () => {
    expect((await runJson(['query', 'ghost-streams', tree.home, ...WEEK_A])).value).toEqual([ghosts(1, 1, 1, 0)]);
    expect((await runJson(['query', 'ghost-streams', tree.home, ...WEEK_B])).value).toEqual([ghosts(2, 1, 1, 1)]);
    expect((await runJson(['query', 'ghost-streams', tree.home])).value).toEqual([ghosts(3, 2, 2, 1)]);
  });

  it('discarded-output: a StreamRestart counts in its retry\'s window, so no phantom unreported chars', async () => {
    expect((await runJson(['query', 'discarded-output', tree.home, ...WEEK_A])).value).toEqual([{
      session_id: ID, retries: 1, retry_discarded_chars: 500, retry_discarded_thinking_chars: 0, restarts: 1,
      restart_discarded_chars: 500, restart_discarded_thinking_chars: 0, unreported_chars: 0,
    }]);
    expect((await runJson(['query', 'discarded-output', tree.home, ...WEEK_B])).value).toEqual([]);
  });

  it('report: the ghost-streams section of either week has no negative count', async () => {
    const run = await runCli(['report', tree.home, ...WEEK_B]);
    expect(run.code, run.stderr).toBe(0);
    const section = run.stdout.slice(run.stdout.indexOf('## Ghost streams'), run.stdout.indexOf('## API errors'));
    expect(section).toContain(`| ${ID} | 2 | 1 | 1 | 1 | 0 | 1 | 0 |`);
    expect(section).toContain('- total main_ghosts: 0 (previous window 0, 0)');
    expect(section).not.toMatch(/-1\b/);
  });
});
