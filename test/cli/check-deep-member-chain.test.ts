import { describe, expect, it } from 'vitest';
import { runCli } from '../checks/run-cli.js';

// fixtures/check-deep-member-chain: a generator stored in `this.a.a…a` (10,000 levels) inside a
// try, iterated there through the same chain, or through one a level shorter. The parser takes
// such chains; comparing two of them must not recurse once per level. With --types, TypeScript's
// binder recurses on the chain itself (tsc overflows on this file too): the file is named as not
// checked and the rest is checked, where it used to be an internal error (exit 3).
const fixture = 'fixtures/check-deep-member-chain';

describe('check: a member chain 10,000 levels deep', () => {
  it('is checked: the same chain iterated inside the try is consumption, a different one is not', async () => {
    const run = await runCli(['check', fixture]);
    expect([run.code, run.stderr, run.stdout]).toEqual([
      1,
      '',
      [
        'src/deep-chain.ts',
        '  19:20014 error   new            dead-catch            streamEvents() is an async generator not iterated inside the try: its body runs only when iterated, so the catch at line 21 never sees its errors',
        '',
        '1 new, 0 baselined, 0 allowed, 0 info, 0 stale (2 files scanned, 2 parsed)',
        '',
      ].join('\n'),
    ]);
  });

  it('with --types, is named as not checked (exit 2); the other files are checked with types', async () => {
    const run = await runCli(['check', fixture, '--types']);
    expect([run.code, run.stderr, run.stdout]).toEqual([
      2,
      "trajaudit: src/deep-chain.ts: not checked: nested too deeply to parse (TypeScript's binder overflows the stack on it, as tsc does; --types cannot check it); split the expression, or exclude the file in the config\n",
      '0 new, 0 baselined, 0 allowed, 0 info, 0 stale (2 files scanned, 1 parsed, type-aware)\n',
    ]);
  });
});
