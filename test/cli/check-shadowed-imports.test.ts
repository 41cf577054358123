import { describe, expect, it } from 'vitest';
import { runCli } from '../checks/run-cli.js';

// fixtures/check-shadowed-imports: names imported under another name, and local declarations of
// the same name (parameters, variables, functions, classes, catch bindings) that hide the import
// in their scope. Only a use that refers to the import binding is the imported generator, class
// or factory.
const fixture = 'fixtures/check-shadowed-imports';
const singleton = 'one instance shared by the whole process; build it per agent and pass it in';
const returned = (catchLine: number) =>
  `events() is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line ${catchLine} never sees its errors`;

const expected = (suffix: string) =>
  [
    'src/construct.ts',
    `  6:27     error   new            stateful-construction FileReadTracker built at module top level: ${singleton}`,
    '  8:10     note    info           stateful-construction createStatefulTools() builds stateful objects in perAgent',
    '',
    'src/retry.ts',
    `  8:12     error   new            dead-catch            ${returned(9)}`,
    `  21:12    error   new            dead-catch            ${returned(22)}`,
    '',
    `3 new, 0 baselined, 0 allowed, 1 info, 0 stale (4 files scanned, 4 parsed${suffix})`,
    '',
  ].join('\n');

describe('check: a renamed import hidden by a local declaration of the same name', () => {
  it('dead-catch and stateful-construction follow the import only where the name refers to it', async () => {
    const run = await runCli(['check', fixture]);
    expect([run.code, run.stderr, run.stdout]).toEqual([1, '', expected('')]);
  });

  it('with --types as well', async () => {
    const run = await runCli(['check', fixture, '--types']);
    expect([run.code, run.stderr, run.stdout]).toEqual([1, '', expected(', type-aware')]);
  });
});
