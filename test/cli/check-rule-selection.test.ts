import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';
import { runCli } from '../checks/run-cli.js';

// A CI guard that checks nothing passes every run: each way of configuring "nothing" must say so.
let cleanup = () => {};
afterEach(() => cleanup());

function tree(config: unknown): string {
  const t = tempDir('trajaudit-rule-selection-');
  cleanup = t.cleanup;
  mkdirSync(path.join(t.dir, 'src'));
  writeFileSync(path.join(t.dir, 'src/a.ts'), 'declare const p: any;\nexport const f = () => p.sendMessageStream(1);\n');
  writeFileSync(path.join(t.dir, 'trajaudit.config.json'), JSON.stringify(config));
  return t.dir;
}

describe('check: a rule that cannot run is not a silent pass', () => {
  it('--rule X when the config turns X off: exit 2, naming the config key and the two ways out', async () => {
    const dir = tree({ rules: { 'direct-provider-call': { off: true } } });
    const run = await runCli(['check', dir, '--rule', 'direct-provider-call']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `trajaudit: --rule direct-provider-call asks for a rule that ${path.join(dir, 'trajaudit.config.json')}:1 turns off ` +
        '("rules.direct-provider-call.off": true); remove "off" there, or drop --rule direct-provider-call\n',
    );
    // Another rule, not turned off, still runs as asked.
    expect((await runCli(['check', dir, '--rule', 'dead-catch'])).code).toBe(0);
  });

  it('methods: [] is a config error (exit 2); with "off": true it is fine', async () => {
    const dir = tree({ rules: { 'direct-provider-call': { methods: [] } } });
    const run = await runCli(['check', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `trajaudit: ${path.join(dir, 'trajaudit.config.json')}:1: invalid value at "rules.direct-provider-call.methods": ` +
        'names no method, so the rule could never report anything; list at least one, or turn the rule off with "off": true\n',
    );
    writeFileSync(path.join(dir, 'trajaudit.config.json'), JSON.stringify({ rules: { 'direct-provider-call': { methods: [], off: true } } }));
    expect((await runCli(['check', dir])).code).toBe(0);
  });

  it('stateful-construction with no classes and no factories is a config error; one of them empty is fine', async () => {
    const dir = tree({ rules: { 'stateful-construction': { classes: [], factories: [] } } });
    const run = await runCli(['check', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('invalid value at "rules.stateful-construction.classes": no classes and no factories');
    writeFileSync(path.join(dir, 'trajaudit.config.json'), JSON.stringify({ rules: { 'stateful-construction': { classes: [] } } }));
    expect((await runCli(['check', dir, '--rule', 'stateful-construction'])).code).toBe(0);
  });

  it('every rule turned off: exit 0, but stderr says nothing was checked', async () => {
    const off = { off: true };
    const dir = tree({ rules: { 'direct-provider-call': off, 'stateful-construction': off, 'dead-catch': off } });
    const run = await runCli(['check', dir]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`trajaudit: ${path.join(dir, 'trajaudit.config.json')} turns every rule off: nothing was checked\n`);
  });

  it('no source file left to check (all ignored): exit 0, but stderr says nothing was checked', async () => {
    const dir = tree({});
    writeFileSync(path.join(dir, '.gitignore'), 'src/\n');
    const run = await runCli(['check', dir]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `trajaudit: ${dir}: no .ts, .tsx, .mts or .cts file to check (after what git ignores and the config's exclude): nothing was checked\n`,
    );
    expect((await runCli(['check', path.join(dir, 'src')])).stderr).toBe('');
  });
});
