import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTree, runCli } from '../helpers/run-cli.js';

// The stale-entry hint names the command that drops the entry. Without the root and --baseline,
// following it from the repository's top wrote a second baseline there and left the stale entry,
// and the failing run, as they were.
let cleanup = () => {};
afterEach(() => cleanup());

const call = 'declare const c: any;\nexport function f() { c.sendMessageStream(); }\n';

function tree(files: Record<string, string>): string {
  const t = fileTree('trajaudit-stale-hint-', files);
  cleanup = t.cleanup;
  return t.dir;
}

describe('the stale-entry hint repeats the invocation that rewrites the right baseline', () => {
  it('a monorepo package: the hint names the root; following it drops the entry and writes no baseline at the top', async () => {
    const dir = tree({ '.git/HEAD': 'ref: refs/heads/main\n', 'packages/agent/src/a.ts': call });
    expect((await runCli(['check', 'packages/agent', '--update-baseline', '--allow-additions'], { cwd: dir })).code).toBe(0);
    writeFileSync(path.join(dir, 'packages/agent/src/a.ts'), 'export function f() {}\n');
    const strict = await runCli(['check', 'packages/agent', '--strict', '--format', 'github'], { cwd: dir });
    expect(strict).toEqual({
      stdout:
        '::error file=packages/agent/trajaudit-baseline.json,title=trajaudit stale baseline entry::stale baseline entry (fixed or gone): ' +
        'direct-provider-call src/a.ts f c.sendMessageStream; --strict fails the run on stale entries: ' +
        'run trajaudit check packages/agent --update-baseline to drop it\n' +
        'trajaudit: 0 new, 0 baselined, 0 allowed, 0 info, 1 stale (1 file scanned, 0 parsed)\n',
      stderr: '',
      code: 1,
    });
    expect(await runCli(['check', 'packages/agent', '--update-baseline'], { cwd: dir })).toEqual({
      stdout: '0 new, 0 baselined, 0 allowed, 0 info, 0 stale (1 file scanned, 0 parsed)\n',
      stderr: 'trajaudit: baseline packages/agent/trajaudit-baseline.json rewritten: 0 findings recorded, 0 added, 1 stale dropped\n',
      code: 0,
    });
    expect(existsSync(path.join(dir, 'trajaudit-baseline.json'))).toBe(false);
    expect((await runCli(['check', 'packages/agent', '--strict'], { cwd: dir })).code).toBe(0);
  });

  it('--config, --baseline and --rule given: the hint repeats them, quoted for the shell where needed (text, sarif)', async () => {
    const dir = tree({ 'my pkg/src/a.ts': call, 'ci/trajaudit.config.json': '{}\n' });
    const given = ['my pkg', '--config', 'ci/trajaudit.config.json', '--baseline', "ci/it's-baseline.json", '--rule', 'direct-provider-call'];
    expect((await runCli(['check', ...given, '--update-baseline', '--allow-additions'], { cwd: dir })).code).toBe(0);
    writeFileSync(path.join(dir, 'my pkg/src/a.ts'), 'export function f() {}\n');
    const hint = "trajaudit check 'my pkg' --config ci/trajaudit.config.json --baseline 'ci/it'\\''s-baseline.json' --rule direct-provider-call --update-baseline";
    expect(await runCli(['check', ...given], { cwd: dir })).toEqual({
      stdout:
        `stale baseline entries (fixed or gone; run ${hint} to drop them):\n` +
        '  direct-provider-call  src/a.ts  f  c.sendMessageStream\n\n' +
        '0 new, 0 baselined, 0 allowed, 0 info, 1 stale (1 file scanned, 0 parsed)\n',
      stderr: '',
      code: 0,
    });
    const sarif = await runCli(['check', ...given, '--format', 'sarif'], { cwd: dir });
    expect(sarif.code).toBe(0);
    expect(JSON.parse(sarif.stdout).runs[0].invocations[0].toolExecutionNotifications[0].message.text).toBe(
      `stale baseline entry (fixed or gone): direct-provider-call src/a.ts f c.sendMessageStream; run ${hint} to drop it`,
    );
    expect(readFileSync(path.join(dir, "ci/it's-baseline.json"), 'utf8')).toContain('"file":"src/a.ts"');
  });
});
