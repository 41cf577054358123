import { describe, expect, it } from 'vitest';
import { checkJson } from '../checks/run-cli.js';

const fixture = 'fixtures/check-dead-catch';
const reported = async (args: string[]) =>
  (await checkJson([fixture, ...args])).json.findings.map((f) => `${f.line}:${f.column} ${f.scope} ${f.details?.escape} ${f.resolution}`);

// fixtures/check-dead-catch/src/traps.ts, one function per trap.
describe('dead-catch traps', () => {
  it('syntactic: reports returned / not-iterated generators, resolved by a name index', async () => {
    expect(await reported([])).toEqual([
      '6:12 returnedFromTry returned syntactic',
      '49:14 iteratedOutside not-consumed syntactic',
      '67:19 viaInterface returned syntactic', // every implementation of turns() is async*
    ]);
  });

  it('--types: the checker also resolves a name the index finds ambiguous', async () => {
    expect(await reported(['--types'])).toEqual([
      '6:12 returnedFromTry returned resolved',
      '49:14 iteratedOutside not-consumed resolved',
      '67:19 viaInterface returned resolved',
      '75:18 ambiguousName returned resolved', // TurnCache.refresh is async*, the other refresh() is not
    ]);
  });

  it('does not report consumed generators, async non-* methods, or an IIFE with its own catch', async () => {
    const lines = new Set((await checkJson([fixture, '--types'])).json.findings.map((f) => f.line));
    // handedToConsume 15, assignedThenConsumed 23, iteratedInside 32, delegatedInside 40, async open() 58, IIFE 84-86
    for (const line of [15, 23, 24, 32, 40, 58, 84, 86]) expect(lines.has(line)).toBe(false);
  });

  it('names the catch that cannot see the errors', async () => {
    const first = (await checkJson([fixture])).json.findings[0];
    expect(first.message).toBe(
      'streamTurns() is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line 7 never sees its errors',
    );
    expect(first.anchor).toBe('streamTurns');
  });
});
