import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/run-cli.js';
import { homeDb, queryRows } from './query-cli.js';

const row = (
  agent_type: string, starts: number, completed: number, error: number, unknown: number, never_stopped: number,
  sessions: number, p50_elapsed_ms: number | null, max_elapsed_ms: number | null,
) => ({ agent_type, starts, completed, error, unknown, never_stopped, sessions, p50_elapsed_ms, max_elapsed_ms });

describe('query subagent-starts', () => {
  it('per agent_type of the bundled home, starts desc then type; p50 is the lower median (EXPECTED.md §6, disc)', async () => {
    const { rows, stderr } = await queryRows('subagent-starts', [...(await homeDb())]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row('explore', 3, 2, 1, 0, 0, 2, 20720, 23819),
      row('task', 3, 1, 1, 0, 1, 2, 863, 23007),
      row('verify', 2, 2, 0, 0, 0, 2, 18294, 23540),
      row('custom', 1, 0, 0, 1, 0, 1, 41210, 41210),
      row('plan', 1, 1, 0, 0, 0, 1, 19705, 19705),
    ]);
  });

  it('--since/--until select Starts: week A has the custom subagent paired by order with its null-id Stop', async () => {
    const { rows } = await queryRows('subagent-starts', [...(await homeDb()), '--since', '2026-08-10', '--until', '2026-08-17']);
    expect(rows).toEqual([
      row('custom', 1, 0, 0, 1, 0, 1, 41210, 41210),
      row('explore', 1, 1, 0, 0, 0, 1, 20720, 20720),
      row('verify', 1, 1, 0, 0, 0, 1, 23540, 23540),
    ]);
  });

  it('--session: the six parallel subagents of the incident, two of them failed', async () => {
    const { rows } = await queryRows('subagent-starts', [...(await homeDb()), '--session', '4f7a9c2e']);
    expect(rows).toEqual([
      row('explore', 2, 1, 1, 0, 0, 1, 819, 23819),
      row('task', 2, 1, 1, 0, 0, 1, 863, 23007),
      row('plan', 1, 1, 0, 0, 0, 1, 19705, 19705),
      row('verify', 1, 1, 0, 0, 0, 1, 18294, 18294),
    ]);
  });

  it('custom Stops pair in order with the session\'s custom Starts; unmatched Stops are not counted', async () => {
    const { rows, stderr } = await queryRows('subagent-starts', [path.join(FIXTURES, 'queries-subagent-edges')]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row('custom', 2, 0, 0, 1, 1, 1, 5000, 5000),
      row('explore', 1, 1, 0, 0, 0, 1, 4000, 4000),
      row('task', 1, 0, 0, 0, 1, 1, null, null),
    ]);
  });

  it('a Stop pairs only with an earlier unpaired Start of its key: one that comes first pairs with nothing', async () => {
    const { rows, stderr } = await queryRows('subagent-starts', [path.join(FIXTURES, 'queries-subagent-order')]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row('custom', 2, 1, 0, 0, 1, 1, 7000, 7000),
      row('explore', 1, 0, 0, 0, 1, 1, null, null),
    ]);
  });
});
