import { describe, expect, it } from 'vitest';
import { runCli } from '../checks/run-cli.js';

// fixtures/check-deep-expression: generated code whose `+` chain nests 3,000 levels deep, more
// than a recursive walk of the tree survives; tsc itself checks the file.
const fixture = 'fixtures/check-deep-expression';

describe('check: a deeply nested expression', () => {
  const expected = (suffix: string) =>
    [
      'src/generated-table.ts',
      '  66:28    error   new            stateful-construction FileReadTracker built at module top level: one instance shared by the whole process; build it per agent and pass it in',
      '  69:19    error   new            direct-provider-call  direct call to sendMessageStream() bypasses the resilience funnel (allowed only in src/llm/**, packages/*/src/llm/**)',
      '  78:12    error   new            dead-catch            rows() is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line 79 never sees its errors',
      '',
      `3 new, 0 baselined, 0 allowed, 0 info, 0 stale (2 files scanned, 1 parsed${suffix})`,
      '',
    ].join('\n');

  it('is walked by every rule: findings before and after it are reported, exit 1', async () => {
    const run = await runCli(['check', fixture]);
    expect([run.code, run.stderr, run.stdout]).toEqual([1, '', expected('')]);
  });

  it('with --types as well', async () => {
    const run = await runCli(['check', fixture, '--types']);
    expect([run.code, run.stderr, run.stdout]).toEqual([1, '', expected(', type-aware')]);
  });
});
