import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTree, runCli } from '../helpers/run-cli.js';
import { checkJson } from '../checks/run-cli.js';

// `check packages/agent` in a monorepo: git applies the ignore files above the root too
// (`git ls-files -co --exclude-standard src` lists what is checked here).
let cleanup = () => {};
afterEach(() => cleanup());

const call = 'declare const p: any;\nexport const f = () => p.sendMessageStream(1);\n';

function repo(files: Record<string, string>): string {
  const t = fileTree('trajaudit-gitignore-repo-', files);
  cleanup = t.cleanup;
  return t.dir;
}

const reported = async (root: string) => (await checkJson([root])).json.findings.map((f) => f.file);

describe('check honours the ignore files of the enclosing git work tree', () => {
  it('a root below the top: the top .gitignore and .git/info/exclude apply, as from the top', async () => {
    const dir = repo({
      '.git/info/exclude': 'src/local/\n',
      '.gitignore': 'src/generated/\n',
      'src/generated/client.ts': call,
      'src/local/scratch.ts': call,
      'src/agent/a.ts': call,
    });
    expect(await reported(dir)).toEqual(['src/agent/a.ts']);
    expect(await reported(path.join(dir, 'src'))).toEqual(['agent/a.ts']);
    expect(await reported(path.join(dir, 'src/generated'))).toEqual([]);
    // Named through a link from outside the work tree, the root is where the link leads, as git takes it.
    const elsewhere = fileTree('trajaudit-gitignore-link-', {});
    try {
      symlinkSync(path.join(dir, 'src'), path.join(elsewhere.dir, 'src-link'));
      expect(await reported(path.join(elsewhere.dir, 'src-link'))).toEqual(['agent/a.ts']);
    } finally {
      elsewhere.cleanup();
    }
  });

  it('a deeper .gitignore re-includes what a shallower one excluded (`!`), and the top one applies in between', async () => {
    const dir = repo({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': '*.gen.ts\n',
      'packages/agent/.gitignore': '!keep.gen.ts\n',
      'packages/agent/src/keep.gen.ts': call,
      'packages/agent/src/drop.gen.ts': call,
      'packages/agent/src/a.ts': call,
    });
    expect(await reported(dir)).toEqual(['packages/agent/src/a.ts', 'packages/agent/src/keep.gen.ts']);
    expect(await reported(path.join(dir, 'packages/agent/src'))).toEqual(['a.ts', 'keep.gen.ts']);
  });

  it('outside a git work tree, a .gitignore above the root is not git\'s and does not apply', async () => {
    const dir = repo({ '.gitignore': 'src/generated/\n', 'src/generated/client.ts': call });
    expect(await reported(path.join(dir, 'src'))).toEqual(['generated/client.ts']);
    expect(await reported(dir)).toEqual([]);
  });
});

const hasGit = spawnSync('git', ['--version']).status === 0;

describe.runIf(hasGit)('a committed file that a .gitignore pattern matches', () => {
  it('is checked, as git lists it (git never ignores a tracked file); untracked ones beside it are not', async () => {
    const root = repo({ '.gitignore': 'src/b.ts\nsrc/gen/\n', 'src/a.ts': call, 'src/b.ts': call, 'src/gen/c.ts': call, 'src/gen/d.ts': call });
    const git = (...args: string[]) => expect(spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root }).status).toBe(0);
    git('init', '-q');
    git('add', '-f', '.gitignore', 'src/a.ts', 'src/b.ts', 'src/gen/c.ts');
    git('commit', '-qm', 'i');
    expect(await reported(root)).toEqual(['src/a.ts', 'src/b.ts', 'src/gen/c.ts']);
  });
});

describe.runIf(hasGit)('git installed but refusing the work tree (another owner\'s checkout, as in a CI container)', () => {
  it('says on stderr that committed files an ignore pattern matches are not checked, and what to do; the exit code is unchanged', async () => {
    const root = repo({ '.gitignore': '*.gen.ts\n', 'src/client.gen.ts': call, 'src/ok.ts': 'export const ok = 1;\n' });
    const git = (...args: string[]) => expect(spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root }).status).toBe(0);
    git('init', '-q');
    git('add', '.gitignore', 'src/ok.ts');
    git('add', '-f', 'src/client.gen.ts');
    git('commit', '-qm', 'i');
    // git's own switch for its ownership check: what a checkout owned by another uid gives, without chown.
    const refused = await runCli(['check', root], { env: { GIT_TEST_ASSUME_DIFFERENT_OWNER: '1' } });
    const top = realpathSync(root); // as git names it
    expect(refused).toEqual({
      stdout: '0 new, 0 baselined, 0 allowed, 0 info, 0 stale (1 file scanned, 0 parsed)\n',
      stderr:
        `trajaudit: git would not list the committed files of ${top} (git: detected dubious ownership in repository at '${top}'): ` +
        'files an ignore pattern matches are not checked, committed or not; ' +
        `let git read the work tree (for "dubious ownership": git config --global --add safe.directory ${top})\n`,
      code: 0,
    });
    // Where git reads it, the committed file is checked and fails the run, without a word on stderr.
    const read = await runCli(['check', root]);
    expect(read.code).toBe(1);
    expect(read.stderr).toBe('');
    expect(read.stdout).toMatch(/^1 new, 0 baselined, 0 allowed, 0 info, 0 stale \(2 files scanned, 1 parsed\)$/m);
  });

  it('stays silent where git is not installed: the ignore files alone decide, as documented', async () => {
    const root = repo({ '.git/HEAD': 'ref: refs/heads/main\n', '.gitignore': '*.gen.ts\n', 'src/client.gen.ts': call, 'src/ok.ts': 'export const ok = 1;\n' });
    expect(await runCli(['check', root], { env: { PATH: path.join(root, 'no-such-dir') } })).toEqual({
      stdout: '0 new, 0 baselined, 0 allowed, 0 info, 0 stale (1 file scanned, 0 parsed)\n',
      stderr: '',
      code: 0,
    });
  });
});
