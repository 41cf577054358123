import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkJson, copyFixture, runCli } from '../checks/run-cli.js';

// fixtures/check-stateful-construction: src/agents/shared-state.ts keeps one module-level tracker.
// Every module-level site has the scope `<module>`, which every file has, so a cross-file match
// for it would take any new singleton in any existing file for the one removed elsewhere.
let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

async function baselined(): Promise<string> {
  const copy = copyFixture('check-stateful-construction');
  cleanups.push(copy.cleanup);
  const run = await runCli(['check', copy.dir, '--update-baseline', '--allow-additions']);
  expect(run.code, run.stderr).toBe(0);
  return copy.dir;
}

const singleton = 'export const sharedTracker = new FileReadTracker();';

describe('baseline: module-level sites across files', () => {
  it('a singleton removed from one file and added to another existing file: new + stale, exit 1 under --strict', async () => {
    const dir = await baselined();
    const shared = path.join(dir, 'src/agents/shared-state.ts');
    writeFileSync(shared, readFileSync(shared, 'utf8').replace(singleton, 'export {};'));
    const subagent = path.join(dir, 'src/agents/subagent.ts');
    const text = readFileSync(subagent, 'utf8');
    writeFileSync(subagent, text.replace(/^(import .*\n)+/, (imports) => `${imports}\nconst everySubagent = new FileReadTracker();\nvoid everySubagent;\n`));
    const { json, run } = await checkJson([dir, '--strict']);
    expect(json.findings.filter((f) => f.state === 'new').map((f) => `${f.file} ${f.scope}`)).toEqual(['src/agents/subagent.ts <module>']);
    expect(json.stale.map((e) => `${e.file} ${e.scope}`)).toEqual(['src/agents/shared-state.ts <module>']);
    expect(run.code).toBe(1);
  });

  it('a singleton whose file is renamed stays baselined', async () => {
    const dir = await baselined();
    renameSync(path.join(dir, 'src/agents/shared-state.ts'), path.join(dir, 'src/agents/state.ts'));
    const { json, run } = await checkJson([dir, '--strict']);
    expect(json.findings.find((f) => f.file === 'src/agents/state.ts' && f.scope === '<module>')?.state).toBe('baselined');
    expect(json.summary).toMatchObject({ new: 0, stale: 0 });
    expect(run.code).toBe(0);
  });
});
