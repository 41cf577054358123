import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';
import { checkJson } from '../checks/run-cli.js';

// `check packages/agent` in a monorepo: git applies the ignore files above the root too
// (`git ls-files -co --exclude-standard src` lists what is checked here).
let cleanup = () => {};
afterEach(() => cleanup());

const call = 'declare const p: any;\nexport const f = () => p.sendMessageStream(1);\n';

function repo(files: Record<string, string>): string {
  const t = tempDir('trajaudit-gitignore-repo-');
  cleanup = t.cleanup;
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(t.dir, rel)), { recursive: true });
    writeFileSync(path.join(t.dir, rel), text);
  }
  return t.dir;
}

const reported = (root: string) => checkJson([root]).json.findings.map((f) => f.file);

describe('check honours the ignore files of the enclosing git work tree', () => {
  it('a root below the top: the top .gitignore and .git/info/exclude apply, as from the top', () => {
    const dir = repo({
      '.git/info/exclude': 'src/local/\n',
      '.gitignore': 'src/generated/\n',
      'src/generated/client.ts': call,
      'src/local/scratch.ts': call,
      'src/agent/a.ts': call,
    });
    expect(reported(dir)).toEqual(['src/agent/a.ts']);
    expect(reported(path.join(dir, 'src'))).toEqual(['agent/a.ts']);
    expect(reported(path.join(dir, 'src/generated'))).toEqual([]);
  });

  it('a deeper .gitignore re-includes what a shallower one excluded (`!`), and the top one applies in between', () => {
    const dir = repo({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': '*.gen.ts\n',
      'packages/agent/.gitignore': '!keep.gen.ts\n',
      'packages/agent/src/keep.gen.ts': call,
      'packages/agent/src/drop.gen.ts': call,
      'packages/agent/src/a.ts': call,
    });
    expect(reported(dir)).toEqual(['packages/agent/src/a.ts', 'packages/agent/src/keep.gen.ts']);
    expect(reported(path.join(dir, 'packages/agent/src'))).toEqual(['a.ts', 'keep.gen.ts']);
  });

  it('outside a git work tree, a .gitignore above the root is not git\'s and does not apply', () => {
    const dir = repo({ '.gitignore': 'src/generated/\n', 'src/generated/client.ts': call });
    expect(reported(path.join(dir, 'src'))).toEqual(['generated/client.ts']);
    expect(reported(dir)).toEqual([]);
  });
});

const hasGit = spawnSync('git', ['--version']).status === 0;

describe.runIf(hasGit)('a committed file that a .gitignore pattern matches', () => {
  it('is checked, as git lists it (git never ignores a tracked file); untracked ones beside it are not', () => {
    const root = repo({ '.gitignore': 'src/b.ts\nsrc/gen/\n', 'src/a.ts': call, 'src/b.ts': call, 'src/gen/c.ts': call, 'src/gen/d.ts': call });
    const git = (...args: string[]) => expect(spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root }).status).toBe(0);
    git('init', '-q');
    git('add', '-f', '.gitignore', 'src/a.ts', 'src/b.ts', 'src/gen/c.ts');
    git('commit', '-qm', 'i');
    expect(reported(root)).toEqual(['src/a.ts', 'src/b.ts', 'src/gen/c.ts']);
  });
});
