import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowMatcher, diffSnapshots } from '../../../src/leak/diff.js';
import { takeSnapshot } from '../../../src/leak/snapshot.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'trajaudit-leak-diff-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function around(change: () => void, allow: string[] = []) {
  const before = await takeSnapshot(dir, 'w');
  change();
  return diffSnapshots('w', before, await takeSnapshot(dir, 'w'), allowMatcher(allow));
}

describe('takeSnapshot', () => {
  it('records files, symlinks (not followed) and dirs, dirs with a trailing slash', async () => {
    mkdirSync(path.join(dir, 'a/b'), { recursive: true });
    writeFileSync(path.join(dir, 'a/b/f.txt'), 'four');
    symlinkSync('/', path.join(dir, 'root-link'));
    const snapshot = await takeSnapshot(dir, 'w');
    expect([...snapshot.entries.keys()]).toEqual(['a/', 'a/b/', 'a/b/f.txt', 'root-link']);
    expect(snapshot.entries.get('root-link')?.kind).toBe('symlink');
    expect(snapshot.entries.get('a/b/f.txt')).toMatchObject({ kind: 'file', size: 4 });
    expect(snapshot.entries.get('a/b/f.txt')?.hash).toMatch(/^[0-9a-f]{40}$/);
  });

  it('treats a missing dir as empty', async () => {
    const snapshot = await takeSnapshot(path.join(dir, 'nope'), 'nope');
    expect(snapshot).toEqual({ exists: false, entries: new Map(), unreadable: [] });
  });
});

describe('diffSnapshots', () => {
  it('lists a new directory only when nothing inside it is listed', async () => {
    const report = await around(() => {
      mkdirSync(path.join(dir, 'full/deep'), { recursive: true });
      writeFileSync(path.join(dir, 'full/deep/x'), 'x');
      mkdirSync(path.join(dir, 'empty/deeper'), { recursive: true });
    });
    expect(report.added).toEqual([
      { path: 'empty/deeper/', bytes: 0 },
      { path: 'full/deep/x', bytes: 1 },
    ]);
    expect(report.leaked).toBe(true);
  });

  it('reports a file replaced by a directory as removed and added', async () => {
    writeFileSync(path.join(dir, 'x'), 'x');
    const report = await around(() => {
      rmSync(path.join(dir, 'x'));
      mkdirSync(path.join(dir, 'x'));
    });
    expect(report.removed).toEqual([{ path: 'x', bytes: 1 }]);
    expect(report.added).toEqual([{ path: 'x/', bytes: 0 }]);
  });

  it('matches --allow globs relative to the watched dir, dot files included; a new dir matches without its slash', async () => {
    const report = await around(() => {
      mkdirSync(path.join(dir, '.cache/empty'), { recursive: true });
      writeFileSync(path.join(dir, '.env'), '');
      writeFileSync(path.join(dir, 'keep.log'), '');
    }, ['.cache/**', './*.log']);
    expect(report.allowed.map((a) => a.path)).toEqual(['.cache/empty/', 'keep.log']);
    expect(report.added).toEqual([{ path: '.env', bytes: 0 }]);
  });

  it('does not fail on removals, and counts only non-directories', async () => {
    mkdirSync(path.join(dir, 'd'));
    writeFileSync(path.join(dir, 'd/f'), 'abc');
    const report = await around(() => rmSync(path.join(dir, 'd'), { recursive: true }));
    expect(report).toMatchObject({
      leaked: false,
      before: { exists: true, files: 1, bytes: 3 },
      after: { exists: true, files: 0, bytes: 0 },
      removed: [{ path: 'd/f', bytes: 3 }],
    });
  });
});
