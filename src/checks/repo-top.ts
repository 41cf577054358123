import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The top level of the git work tree holding `absDir`: the nearest directory from `absDir` up that
 * holds a `.git` (a directory, or a file for a linked worktree or a submodule). Undefined outside one.
 */
export function enclosingRepoTop(absDir: string): string | undefined {
  for (let dir = absDir; ; ) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
