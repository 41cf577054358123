import picomatch from 'picomatch';
import { shownPath, type Entry, type LeftKind, type Snapshot } from './snapshot.js';

export interface Counts {
  exists: boolean;
  /** Everything that is not a directory: regular files, symlinks, sockets. */
  files: number;
  bytes: number;
}

export interface Added { path: string; bytes: number }
export interface Changed { path: string; bytesBefore: number; bytesAfter: number }
export interface Allowed { path: string; change: 'added' | 'changed'; bytes: number }
export interface Unreadable { path: string; error: string }

export interface DirReport {
  /** The --watch value as the user typed it (before `~` expansion), so output is stable across machines. */
  dir: string;
  /** The dir did not exist before the command and does after. */
  created: boolean;
  /** The command left a file (or a FIFO, a socket) at the watched path where the dir is watched: a leak. */
  notDirectory: { kind: LeftKind; bytes: number } | null;
  leaked: boolean;
  before: Counts;
  after: Counts;
  /** Added and changed entries not matched by --allow: these fail the run. */
  added: Added[];
  changed: Changed[];
  /**
   * Dirs listed before the command that cannot be listed after it ('.': the watched dir itself):
   * what they hold now is not seen, so they fail the run, and their old entries are not "removed".
   */
  unreadable: Unreadable[];
  /** Reported, never a failure: a command cleaning up is not leaking. */
  removed: Added[];
  allowed: Allowed[];
}

export type AllowMatcher = (relativePath: string) => boolean;

export function allowMatcher(globs: string[]): AllowMatcher {
  if (globs.length === 0) return () => false;
  return picomatch(globs.map((g) => g.replace(/^\.\//, '')), { dot: true });
}

export function diffSnapshots(dir: string, before: Snapshot, after: Snapshot, isAllowed: AllowMatcher): DirReport {
  const lost = after.unreadable.filter((dir) =>
    (dir.path === '' ? before.exists : before.entries.get(dir.path)?.kind === 'dir') && !before.unreadable.some((old) => old.path === dir.path),
  );
  const unseen = (key: string) => lost.some((dir) => key.length > dir.path.length && key.startsWith(dir.path));
  const addedKeys = leaves([...after.entries.keys()].filter((key) => !before.entries.has(key)));
  const removedKeys = leaves([...before.entries.keys()].filter((key) => !after.entries.has(key) && !unseen(key)));
  const changedKeys = [...after.entries.keys()].filter((key) => {
    const old = before.entries.get(key);
    return old !== undefined && isChanged(old, after.entries.get(key)!);
  });

  const report: DirReport = {
    dir,
    created: !before.exists && after.exists,
    notDirectory: after.notDirectory ?? null,
    leaked: false,
    before: counts(before),
    after: counts(after),
    added: [],
    changed: [],
    unreadable: lost.map((dir) => ({ path: dir.path === '' ? '.' : shownPath(dir.path), error: dir.error })),
    removed: removedKeys.map((key) => ({ path: shownPath(key), bytes: before.entries.get(key)!.size })),
    allowed: [],
  };
  // --allow globs match the paths as shown (a name that is not UTF-8 with its \xHH escapes).
  for (const key of addedKeys) {
    const bytes = after.entries.get(key)!.size;
    const shown = shownPath(key);
    if (isAllowed(shown.replace(/\/$/, ''))) report.allowed.push({ path: shown, change: 'added', bytes });
    else report.added.push({ path: shown, bytes });
  }
  for (const key of changedKeys) {
    const bytes = after.entries.get(key)!.size;
    const shown = shownPath(key);
    if (isAllowed(shown)) report.allowed.push({ path: shown, change: 'changed', bytes });
    else report.changed.push({ path: shown, bytesBefore: before.entries.get(key)!.size, bytesAfter: bytes });
  }
  report.allowed.sort((a, b) => compare(a.path, b.path));
  // Creating the watched dir leaves a directory behind even when nothing is put in it.
  const createdEmpty = report.created && addedKeys.length === 0;
  report.leaked = report.added.length > 0 || report.changed.length > 0 || report.unreadable.length > 0 || createdEmpty || report.notDirectory !== null;
  return report;
}

/** Directories change mtime whenever their contents do; only their appearance or removal counts. */
function isChanged(old: Entry, now: Entry): boolean {
  if (old.kind !== now.kind) return true;
  if (now.kind === 'dir') return false;
  if (old.size !== now.size || old.mtimeMs !== now.mtimeMs) return true;
  return old.hash !== undefined && now.hash !== undefined && old.hash !== now.hash;
}

/** Keep a new (or removed) directory only when nothing listed lies inside it: its files say it all. */
function leaves(keys: string[]): string[] {
  const sorted = keys.sort(compare);
  return sorted.filter((key, i) => !(key.endsWith('/') && sorted[i + 1]?.startsWith(key)));
}

function counts(snapshot: Snapshot): Counts {
  let files = 0;
  let bytes = 0;
  for (const entry of snapshot.entries.values()) {
    if (entry.kind === 'dir') continue;
    files += 1;
    bytes += entry.size;
  }
  return { exists: snapshot.exists, files, bytes };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
