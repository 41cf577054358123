import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';

// A file that cannot be checked exits 2, but code scanning reads only the SARIF: a log that said
// "executionSuccessful: true" with no result for the file closed every alert in it as fixed.
let cleanup = () => {};
afterEach(() => cleanup());

const call = 'declare const c: any;\nc.sendMessageStream();\n';
const sarifOf = (stdout: string) => JSON.parse(stdout).runs[0];
const at = (uri: string) => [{ physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' } } }];

describe('check --format sarif with a file that could not be checked', () => {
  it('too deep to parse: an error notification on the file, the execution failed, the other files still reported', async () => {
    const t = tempDir('trajaudit-sarif-unchecked-');
    cleanup = t.cleanup;
    fs.mkdirSync(path.join(t.dir, 'packages/agent/src'), { recursive: true });
    expect(spawnSync('git', ['init', '-q'], { cwd: t.dir }).status).toBe(0);
    fs.writeFileSync(path.join(t.dir, 'packages/agent/src/deep.ts'), `${call}export const x = ${'('.repeat(20000)}1${')'.repeat(20000)};\n`);
    fs.writeFileSync(path.join(t.dir, 'packages/agent/src/ok.ts'), call);
    const run = await runCli(['check', 'packages/agent', '--format', 'sarif'], { cwd: t.dir });
    const reason = 'not checked: nested too deeply to parse (Maximum call stack size exceeded); split the expression, or exclude the file in the config';
    expect(run.stderr).toBe(`trajaudit: src/deep.ts: ${reason}\n`);
    expect(run.code).toBe(2);
    const sarif = sarifOf(run.stdout);
    expect(sarif.invocations).toEqual([
      { executionSuccessful: false, toolExecutionNotifications: [{ level: 'error', message: { text: reason }, locations: at('packages/agent/src/deep.ts') }] },
    ]);
    expect(sarif.results.map((r: { locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }) => r.locations[0].physicalLocation.artifactLocation.uri)).toEqual([
      'packages/agent/src/ok.ts',
    ]);
  });

  it('a name that is not UTF-8: the notification names the file by its own bytes, percent-encoded', async () => {
    const t = tempDir('trajaudit-sarif-unchecked-');
    cleanup = t.cleanup;
    fs.mkdirSync(path.join(t.dir, 'src'));
    fs.writeFileSync(Buffer.concat([Buffer.from(`${t.dir}/src/b a`), Buffer.from([0xff]), Buffer.from('.ts')]), call);
    fs.writeFileSync(path.join(t.dir, 'src/ok.ts'), 'export const ok = 1;\n');
    const run = await runCli(['check', '.', '--format', 'sarif'], { cwd: t.dir });
    const reason = 'not checked: its name is not UTF-8, which TypeScript cannot open; rename it, or exclude it in the config';
    expect(run.stderr).toBe(`trajaudit: src/b a\\xFF.ts: ${reason}\n`);
    expect(run.code).toBe(2);
    const sarif = sarifOf(run.stdout);
    expect(sarif.invocations).toEqual([{ executionSuccessful: false, toolExecutionNotifications: [{ level: 'error', message: { text: reason }, locations: at('src/b%20a%FF.ts') }] }]);
    expect(sarif.results).toEqual([]);
  });
});
