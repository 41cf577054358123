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
  /**
   * Why git would not list them (the first line it wrote), when it is installed but failed: a work
   * tree it will not read, such as another owner's checkout in a CI container ("dubious ownership").
   */
  refused?: string;
}

export function trackedUnder(absDir: string): Tracked {
  const tracked: Tracked = { files: new Set(), dirs: new Set() };
  let listed: Buffer;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached'], { cwd: absDir, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  } catch (error) {
    // No git at all: the ignore files alone decide, as documented. Any other failure is said.
    const failed = error as NodeJS.ErrnoException & { stderr?: Buffer; status?: number | null };
    if (failed.code === 'ENOENT') return tracked;
    const said = failed.stderr?.toString('utf8').split('\n').find((line) => line.trim() !== '');
    tracked.refused = said ? said.replace(/^fatal: /, '').trim() : `exited with ${failed.status ?? failed.code ?? 'an error'}`;
    return tracked;
  }
  for (const file of listed.toString('utf8').split('\0')) {
    if (file === '') continue;
    tracked.files.add(file);
    for (let dir = path.posix.dirname(file); dir !== '.' && !tracked.dirs.has(dir); dir = path.posix.dirname(dir)) tracked.dirs.add(dir);
  }
  return tracked;
}
