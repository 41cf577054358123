import { describe, expect, it } from 'vitest';
import { summarize, tableSummary } from '../../../src/timeline/summarize.js';
import type { MergedRow } from '../../../src/timeline/timeline-rows.js';

const row = (over: Partial<MergedRow>): MergedRow => ({
  ts: '2026-08-19T10:31:27.120Z', source: 'events', file: 'f', line: 1, event: 'StreamPhase',
  agent: null, taskId: null, index: 10001, data: null, message: null, ...over,
});

describe('summarize', () => {
  it('puts the scanned-for fields first, drops the columns, quotes text with spaces', () => {
    const data = { index: 10001, phase: 'error', agent_id: 'x-sub-a8q1w5n0c', attempt: 1, caller: 'sub-agent', model: 'glm-5.2', error: 'LLM 错误: 429', elapsed_ms: 806 };
    expect(summarize(row({ data }))).toBe('phase=error attempt=1 error="LLM 错误: 429" caller=sub-agent model=glm-5.2 elapsed_ms=806');
  });

  it('leads RetryTelemetry with its type and shows nested values as compact JSON', () => {
    const data = { type: 'retry', model: 'm', attempt: 2, delayMs: 6208, usage: { a: 1 }, list: [1, 2], empty: '' };
    expect(summarize(row({ event: 'RetryTelemetry', data }))).toBe('type=retry attempt=2 delayMs=6208 model=m usage={"a":1} list=[1,2] empty=""');
  });

  it('shows a warn.log record as its message on one line, then its data', () => {
    const warn = row({ source: 'warn', event: '[WARN] SUBAGENT', message: 'first\n  second\n  third', data: { agentId: 'a' } });
    expect(summarize(warn)).toBe('first ⏎ second ⏎ third {"agentId":"a"}');
    expect(summarize(row({ source: 'warn', message: 'plain', data: null }))).toBe('plain');
  });

  it('shortens only past the limit, in code points, saying how much more there is', () => {
    expect(tableSummary('abcdef', 6)).toBe('abcdef');
    expect(tableSummary('😀😀😀', 3)).toBe('😀😀😀');
    expect(tableSummary('abcdefg', 6)).toBe('abcdef … (1 more characters; --format json or md shows the whole summary)');
  });
});
