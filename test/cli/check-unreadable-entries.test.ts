import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

// A file or directory that `check` finds but cannot read (a name that is not UTF-8, a 0700
// directory or 0600 file owned by another user) is named on stderr as not checked, the rest is
// checked, and the run exits 2, as for a file too deeply nested to parse; it stopped with exit 3.
const NOBODY = 65534;
let work: ReturnType<typeof tempDir>;
beforeEach(() => {
  work = tempDir();
  fs.chmodSync(work.dir, 0o755);
});
afterEach(() => work.cleanup());

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('check: entries it cannot read', () => {
  it('a source file or directory whose name is not UTF-8: named with \\xHH escapes, the rest checked, exit 2', async () => {
    const src = path.join(work.dir, 'src');
    fs.mkdirSync(src);
    const call = 'export function f(p: any) { return p.sendMessageStream({}); }\n';
    fs.writeFileSync(Buffer.concat([bytes(`${src}/bad`), Buffer.from([0xff]), bytes('.ts')]), call);
    fs.mkdirSync(Buffer.concat([bytes(`${src}/d`), Buffer.from([0xe9])]));
    fs.writeFileSync(path.join(src, 'ok.ts'), call);
    // Not a source file, or excluded by the config: not named.
    fs.writeFileSync(Buffer.concat([bytes(`${src}/notes`), Buffer.from([0xff]), bytes('.txt')]), 'x');
    fs.mkdirSync(path.join(work.dir, 'gen'));
    fs.writeFileSync(Buffer.concat([bytes(`${work.dir}/gen/g`), Buffer.from([0xfe]), bytes('.ts')]), call);
    fs.writeFileSync(path.join(work.dir, 'trajaudit.config.json'), JSON.stringify({ exclude: ['gen/**'] }));

    const run = await runCli(['check', work.dir]);
    expect([run.code, run.stderr]).toEqual([
      2,
      [
        'trajaudit: src/bad\\xFF.ts: not checked: its name is not UTF-8, which TypeScript cannot open; rename it, or exclude it in the config',
        'trajaudit: src/d\\xE9/: not checked: its name is not UTF-8, which TypeScript cannot open; rename it, or exclude it in the config',
        '',
      ].join('\n'),
    ]);
    expect(run.stdout).toContain('src/ok.ts\n  1:38     error   new            direct-provider-call');
    expect(run.stdout.split('\n').at(-2)).toBe('1 new, 0 baselined, 0 allowed, 0 info, 0 stale (1 file scanned, 1 parsed)');

    const update = await runCli(['check', work.dir, '--update-baseline', '--allow-additions']);
    expect([update.code, update.stderr.split('\n').at(-2)]).toEqual([
      2,
      `trajaudit: --update-baseline refuses to rewrite ${work.dir}/trajaudit-baseline.json while src/bad\\xFF.ts cannot be checked (its name is not UTF-8, which TypeScript cannot open)`,
    ]);
  });

  // Permissions bind root only through another user: root runs the CLI as nobody when it can.
  const root = process.getuid?.() === 0;
  const asUser = root ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
  const runAs = (args: string[]) => {
    const [command, ...rest] = [...asUser, process.execPath, CLI, ...args];
    const run = spawnSync(command, rest, { cwd: '/', env: { ...process.env, NO_COLOR: '1', TZ: 'UTC', COLUMNS: '' }, encoding: 'utf8' });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const canDropRoot = !root || runAs(['--version']).code === 0;

  it.skipIf(!canDropRoot)('a directory or a file the user cannot read: named as permission denied, the rest checked, exit 2', () => {
    const tree = path.join(work.dir, 'tree');
    fs.cpSync(path.join(FIXTURES, 'check-baseline'), tree, { recursive: true });
    fs.mkdirSync(path.join(tree, 'src', 'secret'), { mode: 0o700 });
    fs.copyFileSync(path.join(tree, 'src', 'agent', 'loop.ts'), path.join(tree, 'src', 'secret', 'loop.ts'));
    fs.chmodSync(path.join(tree, 'src', 'agent', 'retry.ts'), 0o600);
    if (root) spawnSync('chown', ['-R', '0:0', tree]);

    const run = runAs(['check', tree]);
    expect([run.code, run.stderr]).toEqual([
      2,
      [
        'trajaudit: src/agent/retry.ts: not checked: cannot be read: permission denied; fix its permissions, or exclude it in the config',
        'trajaudit: src/secret/: not checked: cannot be read: permission denied; fix its permissions, or exclude it in the config',
        '',
      ].join('\n'),
    ]);
    // loop.ts is still checked; retry.ts's baseline entries are not stale (the file is there).
    expect(run.stdout).toMatch(/^src\/agent\/loop\.ts\n {2}7:24 .* baselined .*\n0 new, 2 baselined, 0 allowed, 0 info, 0 stale /ms);

    // Searchable but not listable: the config lookup finds no file, the walk cannot list the root.
    fs.chmodSync(tree, 0o711);
    expect(runAs(['check', tree])).toEqual({ code: 2, stdout: '', stderr: `trajaudit: cannot read check root ${tree}: permission denied; fix its permissions\n` });
  });
});
