// query and report read ./trajaudit.config.json from the current directory (docs/cli.md#config): a
// message about that file names its line and says why it was read, and --config takes another.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

const HOME = path.join(FIXTURES, 'home');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function dirWith(config: string): string {
  const t = tempDir('trajaudit-cwd-config-');
  cleanups.push(t.cleanup);
  fs.writeFileSync(path.join(t.dir, 'trajaudit.config.json'), config);
  return t.dir;
}

describe('config read from the current directory', () => {
  it("a check-only key mistyped: query and report name the file's line and why they read it", async () => {
    const dir = path.join(FIXTURES, 'check-config-unknown-key');
    const file = path.join(dir, 'trajaudit.config.json');
    for (const [command, args] of [['query', ['query', 'timeouts', HOME]], ['report', ['report', HOME]]] as const) {
      const run = await runCli([...args], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `trajaudit: ${file}:3: unknown key "rules.direct-provider-call.allowPaths"; remove it or check the spelling (see trajaudit.schema.json) ` +
          `(${command} read this file because it is in the current directory; fix it, or pass --config F to use another file)\n`,
      );
    }
  });

  it('--config F replaces the file in the current directory; its errors carry no such note', async () => {
    const dir = path.join(FIXTURES, 'check-config-unknown-key');
    const good = dirWith('{}\n');
    expect((await runCli(['query', 'timeouts', HOME, '--config', path.join(good, 'trajaudit.config.json')], { cwd: dir })).code).toBe(0);
    const bad = dirWith('{\n  "tasks": {\n    "testPatterns": [\n      "ok",\n      7\n    ]\n  }\n}\n');
    const run = await runCli(['report', HOME, '--config', path.join(bad, 'trajaudit.config.json')], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^trajaudit: .*trajaudit\.config\.json:5: invalid value at "tasks\.testPatterns\[1\]": [^\n]*\n$/);
    expect(run.stderr).not.toContain('current directory');
  });

  it('an RE2 pattern RE2 refuses is named at its line', async () => {
    const dir = dirWith('{\n  "tasks": {\n    "testPatterns": [\n      "ok",\n      "(a\\\\1"\n    ]\n  }\n}\n');
    const run = await runCli(['query', 'test-pollution', HOME], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^trajaudit: ${path.join(dir, 'trajaudit.config.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5: invalid value at "tasks\\.testPatterns\\[1\\]"`));
    expect(run.stderr).toContain('(query read this file because it is in the current directory');
  });

  it('--help of query and report says where the config is read', async () => {
    for (const command of ['query', 'report']) {
      expect((await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ')).toContain('(default: ./trajaudit.config.json in the current directory, when there is one)');
    }
    expect((await runCli(['--help'])).stdout.replace(/\s+/g, ' ')).toContain('Config: query and report read trajaudit.config.json from the current directory');
    expect((await runCli(['check', '--help'])).stdout.replace(/\s+/g, ' ')).toContain('(default: <root>/trajaudit.config.json)');
    for (const command of ['load', 'sources', 'sql', 'queries', 'timeline', 'leak-check']) {
      expect((await runCli([command, '--help'])).stdout).toContain('\nConfig: none read (query and report read trajaudit.config.json from the current directory, check from its root).\n');
    }
  });
});
