import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { agentRows, aroundRows, eventRows } from '../../../src/timeline/filter-rows.js';
import { parseInstant } from '../../../src/time/parse-time.js';
import type { MergedRow } from '../../../src/timeline/timeline-rows.js';

let n = 0;
const row = (ts: string, event: string, over: Partial<MergedRow> = {}): MergedRow => ({
  ts: `2026-09-01T12:00:${ts}Z`, source: 'events', file: 'e', line: ++n, event, agent: null, taskId: null,
  index: null, data: null, message: null, ...over,
});
const A = { agent: 'subagent-task-a0z6h3j8d', taskId: 'a0z6h3j8d' };

const rows = [
  row('00.500', 'StreamPhase', { index: 10001 }), // before the window
  row('01.000', 'SubagentStart', A),
  row('01.100', 'StreamPhase', { ...A, index: 10001 }),
  row('01.200', 'StreamPhase', { index: 10001 }), // untagged, its index, in window
  row('01.250', 'StreamPhase', { index: 10002 }), // untagged, other index
  row('01.260', 'PreToolUse', { index: 10001 }), // not a stream event
  row('01.300', '[ERROR] LLM:OPENAI', { source: 'warn' }),
  row('01.400', 'SubagentStop', A),
  row('01.500', 'HttpConnected', { index: 10001 }), // after the window
];

describe('agentRows', () => {
  it('keeps the agent rows and the untagged stream rows at its indices inside Start–Stop', () => {
    const lines = (wanted: string) => agentRows(rows, wanted, 's').map((r) => r.ts?.slice(17, 23));
    expect(lines('a0z6h3j8d')).toEqual(['01.000', '01.100', '01.200', '01.400']);
    expect(lines('s-sub-a0z6h3j8d')).toEqual(lines('a0z6h3j8d'));
    expect(lines('subagent-task-a0z6h3j8d')).toEqual(lines('a0z6h3j8d'));
  });

  it('rejects an agent the session does not have, listing the ones it has', () => {
    expect(() => agentRows(rows, 'zzzzzzzzz', 'S1')).toThrow(UsageError);
    expect(() => agentRows(rows, 'zzzzzzzzz', 'S1')).toThrow('no subagent "zzzzzzzzz" in session S1; its agents:\n  subagent-task-a0z6h3j8d');
  });
});

describe('aroundRows and eventRows', () => {
  it('keeps rows within ±window, inclusive', () => {
    const kept = aroundRows(rows, parseInstant('2026-09-01T12:00:01.200Z', '--around'), 100);
    expect(kept.map((r) => r.event)).toEqual(['StreamPhase', 'StreamPhase', 'StreamPhase', 'PreToolUse', '[ERROR] LLM:OPENAI']);
  });

  it('compares to the microsecond: 1000.9 ms from the centre is outside a 1 s window', () => {
    const near = [row('04.000900', 'B'), row('03.999100', 'C'), row('04.000', 'D'), row('01.999', 'E')];
    const kept = aroundRows(near, parseInstant('2026-09-01T12:00:03Z', '--around'), 1000);
    expect(kept.map((r) => r.event)).toEqual(['C', 'D']);
    expect(aroundRows(near, parseInstant('2026-09-01T12:00:03.0009Z', '--around'), 1000).map((r) => r.event)).toEqual(['B', 'C', 'D']);
  });

  it('matches an event name, a log category, a level or the full label, case-sensitively', () => {
    expect(eventRows(rows, ['SubagentStop']).length).toBe(1);
    expect(eventRows(rows, ['LLM:OPENAI']).length).toBe(1);
    expect(eventRows(rows, ['ERROR']).length).toBe(1);
    expect(eventRows(rows, ['[ERROR] LLM:OPENAI', 'HttpConnected']).length).toBe(2);
    expect(eventRows(rows, ['error', 'streamphase']).length).toBe(0);
  });
});
