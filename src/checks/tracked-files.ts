// The files git tracks under a directory. git never ignores a tracked file: `git ls-files -c`
// lists it whatever a .gitignore says, and in a CI checkout the only files an ignore pattern can
// match are committed ones (force-added, or committed before the pattern was written). Asked of
// git itself, once, and only when an ignore pattern matched something.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface Tracked {
  /** Paths relative to the directory, `/`-separated. */
  files: Set<string>;
  /** Every directory holding a tracked file, at any depth. */
  dirs: Set<string>;
}

export function trackedUnder(absDir: string): Tracked {
  const tracked: Tracked = { files: new Set(), dirs: new Set() };
  let listed: Buffer;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached'], { cwd: absDir, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
  } catch {
    return tracked; // no git, or a work tree it will not read (another owner's): the ignore files alone decide
  }
  for (const file of listed.toString('utf8').split('\0')) {
    if (file === '') continue;
    tracked.files.add(file);
    for (let dir = path.posix.dirname(file); dir !== '.' && !tracked.dirs.has(dir); dir = path.posix.dirname(dir)) tracked.dirs.add(dir);
  }
  return tracked;
}
