import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

// Four valid retries, three of them with no readable time (text, missing, epoch ms): no window can
// hold those three, and neither the report nor a windowed query may lose them without a word.
const ID = '20260819-120000-acacacac';
const retry = (attempt: number) => ({ type: 'retry', model: 'm', attempt, delayMs: 1000, error: '429', phase: 'stream', discardedChars: 0 });
const tree = sessionTree(ID, [
  event(ID, 'RetryTelemetry', '2026-08-19T04:00:01.000Z', retry(1)),
  event(ID, 'RetryTelemetry', 'not a time', retry(2)),
  event(ID, 'RetryTelemetry', undefined, retry(3)),
  JSON.stringify({ event: 'RetryTelemetry', session_id: ID, timestamp: 1755576002000, data: retry(4) }),
]);
afterAll(tree.cleanup);
const FILE = `trajectories/sessions/${ID}/events.jsonl`;

describe('rows with no readable time', () => {
  it('report: Input coverage counts them per window and lists them by file:line', async () => {
    const run = await runCli(['report', tree.home, '--since', '2026-08-17', '--until', '2026-08-24']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('| rows with no readable time, in no window (files in the window) | 3 | 0 | +3 |');
    const listed = run.stdout.slice(run.stdout.indexOf('### Rows with no readable time (3)'), run.stdout.indexOf('## Retries by type'));
    expect(listed).toContain('in no window, so left out of every figure below');
    expect(listed.match(/^\| trajectories\/\S+ \|.*$/gm)).toEqual([2, 3, 4].map((l) => `| ${FILE}:${l} | events.jsonl | RetryTelemetry |`));
  });

  it('query with --since/--until: stderr says how many were left out and where', async () => {
    const run = await runCli(['query', 'retry-telemetry', tree.home, '--since', '2026-08-17', '--format', 'csv']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('type,events,main_loop,subagent,sessions,agents\r\nretry,1,1,0,1,0\r\n');
    expect(run.stderr).toBe(`trajaudit: 3 rows have no readable time (timestamp missing or not an ISO-8601 time), so --since/--until leave them out: ${FILE}:2, ${FILE}:3, ${FILE}:4; the report lists them under Input coverage\n`);
  });

  it('query without a window counts them and says nothing', async () => {
    const run = await runCli(['query', 'retry-telemetry', tree.home, '--format', 'csv']);
    expect([run.code, run.stderr, run.stdout]).toEqual([0, '', 'type,events,main_loop,subagent,sessions,agents\r\nretry,4,4,0,1,0\r\n']);
  });
});
