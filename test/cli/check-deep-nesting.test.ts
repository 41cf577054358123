import { describe, expect, it } from 'vitest';
import { runCli } from '../checks/run-cli.js';

// fixtures/check-deep-nesting: src/nested.ts nests deeper than the TypeScript parser itself can
// recurse (tsc overflows its stack too). That file is named as not checked, the others are, and
// the run fails as an input error rather than passing without it.
const fixture = 'fixtures/check-deep-nesting';

describe('check: a file too deeply nested to parse', () => {
  for (const [name, args, suffix] of [
    ['syntactic', [], ''],
    ['--types', ['--types'], ', type-aware'],
  ] as const) {
    it(`is reported by path and the run goes on (${name}), exit 2`, async () => {
      const run = await runCli(['check', fixture, ...args]);
      expect([run.code, run.stderr, run.stdout]).toEqual([
        2,
        'trajaudit: src/nested.ts: not checked: nested too deeply to parse (Maximum call stack size exceeded); split the expression, or exclude the file in the config\n',
        [
          'src/agent.ts',
          '  2:17     error   new            direct-provider-call  direct call to sendMessageStream() bypasses the resilience funnel (allowed only in src/llm/**, packages/*/src/llm/**)',
          '',
          `1 new, 0 baselined, 0 allowed, 0 info, 0 stale (2 files scanned, 1 parsed${suffix})`,
          '',
        ].join('\n'),
      ]);
    });
  }

  it('--update-baseline refuses to rewrite the baseline without that file', async () => {
    const run = await runCli(['check', fixture, '--update-baseline', '--allow-additions']);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      '',
      `trajaudit: --update-baseline refuses to rewrite ${fixture}/trajaudit-baseline.json while src/nested.ts cannot be checked (nested too deeply to parse)\n`,
    ]);
  });
});
