// A window that holds no event (the default 7 days over an older home) prints its empty answer
// with one stderr line on the span the inputs cover. A report says it at its top too, and exits 2
// (a scheduled report is not published empty) unless --allow-empty.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, runCli } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

const HOME = path.join(FIXTURES, 'home');
const UNREADABLE = 'trajaudit: 7 lines in 6 files could not be read; they are listed by `trajaudit sources`\n';
const SPAN = 'the inputs span 2026-08-10T02:14:05.118Z … 2026-08-21T02:17:41.361Z: pass --since/--until within that span';
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('a window with no event says where the events are', () => {
  it('report over fixtures/home with its default window (the last 7 whole UTC days; the data is of August 2026): said at the top, exit 2', async () => {
    const run = await runCli(['report', HOME]);
    expect(run.code).toBe(2);
    const midnight = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
    const weekBefore = new Date(midnight.getTime() - 7 * 86_400_000);
    const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');
    expect(run.stdout).toContain(`- Window: ${iso(weekBefore)} → ${iso(midnight)} (7 days)\n`);
    expect(run.stdout).toContain('- **This window holds no event**: the inputs span 2026-08-10T02:14:05.118Z … 2026-08-21T02:17:41.361Z.\n');
    expect(run.stderr.split('\n')).toEqual([
      UNREADABLE.trim(),
      `trajaudit: the window ${iso(weekBefore)} … ${iso(midnight)} holds no event; ${SPAN}`,
      'trajaudit: the report was written, but its window holds no event: exit 2 so that a scheduled report is not published empty; pass --allow-empty to take an empty window as a report',
      '',
    ]);
    const allowed = await runCli(['report', HOME, '--allow-empty']);
    expect([allowed.code, allowed.stdout]).toEqual([0, run.stdout]);
    expect(allowed.stderr).not.toContain('exit 2');
  });

  it('a window holding events: no hint, the report unchanged', async () => {
    const run = await runCli(['report', HOME, '--since', '2026-08-17', '--until', '2026-08-24']);
    expect([run.code, run.stderr]).toEqual([0, UNREADABLE]);
  });

  it('a windowed query: the window and the span, of the session when --session is given; no hint without a window', async () => {
    const later = await runCli(['query', 'retry-telemetry', HOME, '--since', '2026-09-01']);
    expect(later.code).toBe(0);
    expect(later.stderr).toBe(`${UNREADABLE}trajaudit: the window from 2026-09-01T00:00:00Z on holds no event; ${SPAN}\n`);
    const earlier = await runCli(['query', 'retry-telemetry', HOME, '--until', '2026-08-01']);
    expect(earlier.stderr).toContain(`trajaudit: the window before 2026-08-01T00:00:00Z holds no event; ${SPAN}\n`);
    const session = await runCli(['query', 'retry-telemetry', HOME, '--since', '2026-08-21', '--session', '4f7a9c2e']);
    expect(session.stderr).toContain(
      "trajaudit: the window from 2026-08-21T00:00:00Z on holds no event; session 20260819-183103-4f7a9c2e's inputs span 2026-08-19T10:31:03.412Z … 2026-08-19T10:33:40.200Z: pass --since/--until within that span\n",
    );
    expect((await runCli(['query', 'retry-telemetry', HOME, '--since', '2026-08-17'])).stderr).toBe(UNREADABLE);
    expect((await runCli(['query', 'retry-telemetry', HOME])).stderr).toBe(UNREADABLE);
  });

  it('a window narrower than a millisecond is judged and shown to the microsecond', async () => {
    const tree = sessionTree('s-us', [event('s-us', 'RetryTelemetry', '2026-08-20T11:00:00.000Z', { type: 'retry', model: 'm' })]);
    cleanups.push(tree.cleanup);
    const run = await runCli(['query', 'retry-telemetry', tree.home, '--since', '2026-08-20T11:00:00.0005Z', '--until', '2026-08-20T11:00:00.0015Z', '--format', 'csv']);
    expect(run).toEqual({
      code: 0,
      stdout: 'type,events,main_loop,subagent,sessions,agents\r\n',
      stderr: 'trajaudit: the window 2026-08-20T11:00:00.0005Z … 2026-08-20T11:00:00.0015Z holds no event; the inputs span 2026-08-20T11:00:00Z … 2026-08-20T11:00:00Z: pass --since/--until within that span\n',
    });
  });

  it('files last written before the window are not read; their first record and last write still give the span', async () => {
    const tree = sessionTree('s-old', [
      event('s-old', 'SessionStart', '2026-01-05T10:00:00Z', {}),
      event('s-old', 'SessionEnd', '2026-01-05T11:00:00Z', {}),
    ]);
    cleanups.push(tree.cleanup);
    const file = path.join(tree.home, 'trajectories', 'sessions', 's-old', 'events.jsonl');
    fs.utimesSync(file, new Date('2026-01-05T11:00:01Z'), new Date('2026-01-05T11:00:01Z'));
    const run = await runCli(['report', tree.home, '--until', '2026-03-01', '--allow-empty']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'trajaudit: the window 2026-02-22T00:00:00Z … 2026-03-01T00:00:00Z holds no event; the inputs span 2026-01-05T10:00:00Z … 2026-01-05T11:00:01Z: pass --since/--until within that span\n',
    );
  });
});
