import { describe, expect, it } from 'vitest';
import { checkJson, runCli } from '../checks/run-cli.js';

const fixture = 'fixtures/check-stateful-construction';

describe('stateful-construction', () => {
  it('lists every construction site with its scope; module level is an error, function level info', async () => {
    const { json, run } = await checkJson([fixture]);
    expect(run.code).toBe(1);
    expect(json.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.details?.scopeKind} ${f.scope} ${f.severity} ${f.state}`)).toEqual([
      'src/agents/shared-state.ts:4:34 module <module> error new',
      'src/agents/subagent.ts:4:28 class-field SubAgent.tools warning new',
      'src/agents/subagent.ts:8:24 function SubAgent.constructor note info',
      'src/agents/subagent.ts:12:48 function SubAgent.spawnChildren note info',
      'src/main.ts:5:23 function main note info',
      'src/tools/file-read-tracker.ts:10:25 function createStatefulTools note info',
    ]);
  });

  it('prints the inventory per class as Markdown', async () => {
    const run = await runCli(['check', fixture, '--format', 'md']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        '#### FileReadTracker (4 sites)',
        '',
        '| scope | built in | where | via | state |',
        '| --- | --- | --- | --- | --- |',
        '| module | &lt;module&gt; | src/agents/shared-state.ts:4 | new | new |',
        '| function | SubAgent.constructor | src/agents/subagent.ts:8 | new | info |',
        '| function | main | src/main.ts:5 | new | info |',
        '| function | createStatefulTools | src/tools/file-read-tracker.ts:10 | new | info |',
      ].join('\n'),
    );
    expect(run.stdout).toContain('#### createStatefulTools (2 sites)');
  });

  it('prints text grouped by file with a summary line', async () => {
    const run = await runCli(['check', fixture, '--rule', 'stateful-construction']);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').slice(0, 3)).toEqual([
      'src/agents/shared-state.ts',
      '  4:34     error   new            stateful-construction FileReadTracker built at module top level: one instance shared by the whole process; build it per agent and pass it in',
      '',
    ]);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('2 new, 0 baselined, 0 allowed, 4 info, 0 stale (5 files scanned, 4 parsed)');
  });
});
