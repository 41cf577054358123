import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// fixtures/home/EXPECTED.md §12; the side call (index 900001) is in fixtures/incident-evidence-fallbacks.
const row = (session_id: string, http: number, raw: number, main: number, sub: number, side = 0) => ({
  session_id, http_connected: http, after_model_raw: raw, ghost_streams: http - raw, main_http: main, main_ghosts: main - raw, subagent_ghosts: sub, side_ghosts: side,
});

describe('query ghost-streams', () => {
  it('splits HttpConnected minus AfterModelRaw into main loop, subagent and side calls', async () => {
    const { value, run } = await runJson(['query', 'ghost-streams', path.join(FIXTURES, 'home')]);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      row('20260812-142207-8d3e61f0', 8, 4, 8, 0),
      row('20260814-093015-c7a2e5f1', 8, 4, 7, 1),
      row('20260819-183103-4f7a9c2e', 12, 2, 3, 9),
      row('20260821-101500-b2d84e07', 3, 1, 1, 2),
      row('3b9f02d6', 3, 2, 3, 0),
    ]);
  });

  it('counts a side call (index ≥ 900000) apart from subagents', async () => {
    const { value } = await runJson(['query', 'ghost-streams', path.join(FIXTURES, 'incident-evidence-fallbacks')]);
    expect(value).toEqual([row('20260901-200000-0badcafe', 1, 0, 0, 0, 1)]);
  });
});
