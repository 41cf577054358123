import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTree, tempDir } from '../helpers/run-cli.js';
import { checkJson, runCli } from '../checks/run-cli.js';

// GitHub resolves annotation and code-scanning paths from the repository's top, so `check
// packages/agent` must name `packages/agent/src/a.ts` there; json, text and the baseline keep
// paths from the checked root, so baselines and fingerprints do not depend on where check runs.
let cleanup = () => {};
afterEach(() => cleanup());

const call = 'declare const p: any;\nexport const f = () => p.sendMessageStream(1);\n';

function tree(files: Record<string, string>): string {
  const t = fileTree('trajaudit-repo-paths-', files);
  cleanup = t.cleanup;
  return t.dir;
}

const annotations = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('::'));

/** A monorepo whose packages/agent baseline records a call in b.ts, since removed, while a.ts holds a new one. */
async function monorepoWithStaleEntry(): Promise<string> {
  const dir = tree({ '.git/HEAD': 'ref: refs/heads/main\n', 'packages/agent/src/b.ts': call });
  const agent = path.join(dir, 'packages/agent');
  expect((await runCli(['check', '.', '--update-baseline', '--allow-additions'], { cwd: agent })).code).toBe(0);
  writeFileSync(path.join(agent, 'src/b.ts'), 'export {};\n');
  writeFileSync(path.join(agent, 'src/a.ts'), call.replace('(1)', '(2)'));
  return dir;
}

describe('check --format github and sarif give paths from the repository top', () => {
  it('github: findings and the stale entry from the top, wherever check runs and however the root is named', async () => {
    const dir = await monorepoWithStaleEntry();
    const elsewhere = tempDir();
    // A root named through a link, from outside the repository or inside it, is the directory the
    // link leads to, as git takes it: its files' paths are the ones under the top.
    symlinkSync(path.join(dir, 'packages/agent'), path.join(elsewhere.dir, 'agent-link'));
    symlinkSync('packages/agent', path.join(dir, 'agent-link'));
    // The paths are the same however the root is named; the hint repeats the root as given, for the cwd it was given in.
    const expected = (root: string) => [
      '::error file=packages/agent/src/a.ts,line=2,col=26,title=trajaudit direct-provider-call::direct call to sendMessageStream() bypasses the resilience funnel (allowed only in src/llm/**, packages/*/src/llm/**)',
      '::notice file=packages/agent/trajaudit-baseline.json,title=trajaudit stale baseline entry::stale baseline entry (fixed or gone): ' +
        `direct-provider-call src/b.ts f p.sendMessageStream; run trajaudit check ${root === '.' ? '' : `${root} `}--update-baseline to drop it`,
    ];
    for (const [cwd, root] of [
      [dir, 'packages/agent'],
      [path.join(dir, 'packages/agent'), '.'],
      [path.join(dir, 'packages'), 'agent'],
      [path.join(dir, 'packages/agent/src'), '..'],
      [elsewhere.dir, path.join(dir, 'packages/agent')],
      [elsewhere.dir, 'agent-link'],
      [dir, 'agent-link'],
    ]) {
      const run = await runCli(['check', root, '--format', 'github'], { cwd });
      expect(run.stderr, `${cwd} ${root}`).toBe('');
      expect(annotations(run.stdout), `${cwd} ${root}`).toEqual(expected(root));
    }
    elsewhere.cleanup();
  });

  it('a baseline that is itself a link is named where the link lies, as git tracks it, not where it leads', async () => {
    const dir = await monorepoWithStaleEntry();
    const agent = path.join(dir, 'packages/agent');
    mkdirSync(path.join(dir, 'baselines'));
    renameSync(path.join(agent, 'trajaudit-baseline.json'), path.join(dir, 'baselines/agent.json'));
    symlinkSync('../../baselines/agent.json', path.join(agent, 'trajaudit-baseline.json'));
    const run = await runCli(['check', 'packages/agent', '--format', 'github'], { cwd: dir });
    expect(annotations(run.stdout)[1]).toMatch(/^::notice file=packages\/agent\/trajaudit-baseline\.json,title=trajaudit stale baseline entry::/);
  });

  it('a .git file (linked worktree, submodule) marks the top too', async () => {
    const dir = tree({ '.git': 'gitdir: /elsewhere/.git/worktrees/x\n', 'packages/agent/src/a.ts': call });
    const run = await runCli(['check', 'packages/agent', '--format', 'github'], { cwd: dir });
    expect(annotations(run.stdout)[0]).toMatch(/^::error file=packages\/agent\/src\/a\.ts,line=2,col=26,/);
  });

  it('outside a git work tree: from the current directory, relative even above it', async () => {
    const dir = tree({ 'work/agent/src/a.ts': call, 'work/docs/README.md': '' });
    expect(annotations((await runCli(['check', 'agent', '--format', 'github'], { cwd: path.join(dir, 'work') })).stdout)[0]).toMatch(/^::error file=agent\/src\/a\.ts,/);
    expect(annotations((await runCli(['check', '../agent', '--format', 'github'], { cwd: path.join(dir, 'work/docs') })).stdout)[0]).toMatch(/^::error file=\.\.\/agent\/src\/a\.ts,/);
  });

  it('sarif: uris from the top under %SRCROOT%, which originalUriBaseIds gives; json and fingerprints unchanged', async () => {
    const dir = tree({ '.git/HEAD': 'ref: refs/heads/main\n', 'packages/agent/src/a b.ts': call });
    const run = await runCli(['check', 'packages/agent', '--format', 'sarif'], { cwd: dir });
    expect(run.code).toBe(1);
    const [sarifRun] = JSON.parse(run.stdout).runs;
    expect(sarifRun.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: pathToFileURL(`${dir}/`).href } });
    expect(sarifRun.originalUriBaseIds['%SRCROOT%'].uri).toMatch(/^file:\/\/\/.*\/$/);
    expect(sarifRun.results.map((r: { locations: Array<{ physicalLocation: unknown }> }) => r.locations[0].physicalLocation)).toEqual([
      { artifactLocation: { uri: 'packages/agent/src/a%20b.ts', uriBaseId: '%SRCROOT%' }, region: { startLine: 2, startColumn: 26 } },
    ]);
    const { json } = await checkJson(['packages/agent'], { cwd: dir });
    expect(json.findings.map((f) => f.file)).toEqual(['src/a b.ts']);
    expect(sarifRun.results[0].partialFingerprints['trajaudit/v1']).toBe(json.findings[0].fingerprint);
  });
});
