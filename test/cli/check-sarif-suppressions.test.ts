import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTree } from '../helpers/run-cli.js';
import { runCli } from '../checks/run-cli.js';

// A SARIF consumer lists every result as open unless it carries a suppression: baselined findings
// had none, so the debt a baseline accepts came back as open errors.
let cleanup = () => {};
afterEach(() => cleanup());

const call = (n: number) => `declare const p: any;\nexport const f = () => p.sendMessageStream(${n});\n`;
const at = (uri: string) => ({ physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' } } });
const allowSafety = (reason: string) => JSON.stringify({ rules: { 'direct-provider-call': { allow: [{ path: 'src/safety/**', reason }] } } });

interface SarifResult {
  level: string;
  baselineState?: string;
  suppressions: unknown[];
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
}

const resultsOf = (stdout: string) =>
  (JSON.parse(stdout).runs[0].results as SarifResult[]).map((r) => ({
    uri: r.locations[0].physicalLocation.artifactLocation.uri,
    level: r.level,
    baselineState: r.baselineState,
    suppressions: r.suppressions,
  }));

/** A monorepo whose packages/agent baseline records the call in old.ts; since then new.ts and src/safety/ (allowed by `files`' config) have one each. */
async function monorepo(files: Record<string, string>): Promise<string> {
  const t = fileTree('trajaudit-sarif-suppressions-', { '.git/HEAD': 'ref: refs/heads/main\n', 'packages/agent/src/old.ts': call(1), ...files });
  cleanup = t.cleanup;
  const agent = path.join(t.dir, 'packages/agent');
  expect((await runCli(['check', '.', '--update-baseline', '--allow-additions'], { cwd: agent })).code).toBe(0);
  writeFileSync(path.join(agent, 'src/new.ts'), call(2));
  mkdirSync(path.join(agent, 'src/safety'));
  writeFileSync(path.join(agent, 'src/safety/classifier.ts'), call(3));
  return t.dir;
}

describe('check --format sarif suppresses baselined and allowed findings', () => {
  it('baselined: an external suppression on the baseline file; allowed: on the config, with its reason; new: an empty array', async () => {
    const dir = await monorepo({ 'packages/agent/trajaudit.config.json': allowSafety('the classifier must fail fast') });
    const run = await runCli(['check', 'packages/agent', '--format', 'sarif'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(resultsOf(run.stdout)).toEqual([
      { uri: 'packages/agent/src/new.ts', level: 'error', baselineState: 'new', suppressions: [] },
      {
        uri: 'packages/agent/src/old.ts',
        level: 'error',
        baselineState: 'unchanged',
        suppressions: [{ kind: 'external', status: 'accepted', location: at('packages/agent/trajaudit-baseline.json') }],
      },
      {
        uri: 'packages/agent/src/safety/classifier.ts',
        level: 'error',
        baselineState: undefined,
        suppressions: [{ kind: 'external', status: 'accepted', justification: 'the classifier must fail fast', location: at('packages/agent/trajaudit.config.json') }],
      },
    ]);
  });

  it('--config: the allowed finding is suppressed in that file, from the repository top', async () => {
    const dir = await monorepo({ 'tools/trajaudit.json': allowSafety('reviewed in #12') });
    const run = await runCli(['check', '.', '--config', '../../tools/trajaudit.json', '--format', 'sarif'], { cwd: path.join(dir, 'packages/agent') });
    expect(run.code).toBe(1);
    expect(resultsOf(run.stdout).at(-1)?.suppressions).toEqual([
      { kind: 'external', status: 'accepted', justification: 'reviewed in #12', location: at('tools/trajaudit.json') },
    ]);
  });
});
