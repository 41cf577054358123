import { describe, expect, it } from 'vitest';
import { checkJson, runCli } from '../checks/run-cli.js';

// fixtures/check-dead-catch-flows: a generator function imported under another name, and
// generators that reach the for-await through a conditional, a field, or an array or object literal;
// a package's function renamed on import is not the tree's generator (package-import.ts).
const fixture = 'fixtures/check-dead-catch-flows';
const rule = 'error   new            dead-catch           ';
const returned = (name: string, catchLine: number) =>
  `${rule} ${name}() is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line ${catchLine} never sees its errors`;
const notIterated = (name: string, catchLine: number) =>
  `${rule} ${name}() is an async generator not iterated inside the try: its body runs only when iterated, so the catch at line ${catchLine} never sees its errors`;

const expected = (suffix: string) =>
  [
    'src/flows.ts',
    `  14:19    ${returned('stream', 15)}`,
    `  14:32    ${returned('stream', 15)}`,
    `  14:45    ${returned('stream', 15)}`,
    `  34:16    ${notIterated('stream', 35)}`,
    `  43:16    ${notIterated('stream', 45)}`, // this.s is assigned, other.s iterated
    '',
    'src/literals.ts',
    `  36:13    ${returned('stream', 37)}`, // return [stream(1)]; merge([…]), run({ … }) and an iterated array are consumed
    '',
    'src/renamed-import.ts',
    `  5:12     ${returned('s', 6)}`,
    '',
    `7 new, 0 baselined, 0 allowed, 0 info, 0 stale (5 files scanned, 5 parsed${suffix})`,
    '',
  ].join('\n');

describe('dead-catch: renamed imports and value flows', () => {
  it('syntactic: follows the renamed import; a generator iterated inside the try via a conditional or this.field is not reported', async () => {
    const run = await runCli(['check', fixture]);
    expect([run.code, run.stderr, run.stdout]).toEqual([1, '', expected('')]);
  });

  it('--types: the same sites, resolved by the checker', async () => {
    const run = await runCli(['check', fixture, '--types']);
    expect([run.code, run.stderr, run.stdout]).toEqual([1, '', expected(', type-aware')]);
    expect(new Set((await checkJson([fixture, '--types'])).json.findings.map((f) => f.resolution))).toEqual(new Set(['resolved']));
  });
});
