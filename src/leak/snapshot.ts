import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../errors.js';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'other';

export interface Entry {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
  /** Content hash of small regular files only (see HASH_LIMIT). */
  hash?: string;
}

export interface Snapshot {
  exists: boolean;
  /** Keyed by path relative to the watched dir, '/'-separated; directories end in '/'. */
  entries: Map<string, Entry>;
  /** Subdirectories that could not be listed (reported as warnings, never skipped silently). */
  unreadable: string[];
  /** What the command left at the watched path instead of a directory (a snapshot after it only). */
  notDirectory?: Entry;
}

/**
 * Linux stamps mtimes from a coarse clock, so a rewrite of the same size within one tick keeps
 * size and mtime. Hashing small files catches that; large files are rare in the dirs this
 * guards and cost too much to read twice.
 */
const HASH_LIMIT = 64 * 1024;

/**
 * `label` is the --watch value as given, for messages. Before the command a watched path that is
 * not a directory is the user's mistake; after it, the command put it there: a leak to report,
 * never a reason to lose the report and the command's exit code.
 */
export async function takeSnapshot(dir: string, label: string, when: 'before' | 'after' = 'before'): Promise<Snapshot> {
  const snapshot: Snapshot = { exists: false, entries: new Map(), unreadable: [] };
  // The watched dir itself may be a link to a directory (entries inside it are not followed).
  const root = await lstatOrNull(dir, stat);
  if (!root) {
    // A link left there that points nowhere: something the command left at the watched path.
    const link = when === 'after' ? await lstatOrNull(dir) : null;
    if (link?.isSymbolicLink()) snapshot.notDirectory = { kind: 'symlink', size: link.size, mtimeMs: link.mtimeMs };
    return snapshot;
  }
  if (!root.isDirectory() && when === 'after') {
    snapshot.notDirectory = { kind: root.isFile() ? 'file' : 'other', size: root.size, mtimeMs: root.mtimeMs };
    return snapshot;
  }
  if (!root.isDirectory()) throw new InputError(`--watch ${label}: not a directory; pass the directory to watch`);
  snapshot.exists = true;
  await walk(dir, '', snapshot);
  return snapshot;
}

async function walk(absolute: string, relative: string, snapshot: Snapshot): Promise<void> {
  let names: string[];
  try {
    names = await readdir(absolute);
  } catch (error) {
    if (code(error) === 'ENOENT') return; // removed while we looked: nothing there to record
    snapshot.unreadable.push(`${relative || '.'}: ${code(error) ?? String(error)}`);
    return;
  }
  for (const name of names.sort()) {
    const childAbsolute = path.join(absolute, name);
    const childRelative = relative ? `${relative}/${name}` : name;
    const stats = await lstatOrNull(childAbsolute);
    if (!stats) continue;
    if (stats.isDirectory()) {
      snapshot.entries.set(`${childRelative}/`, { kind: 'dir', size: 0, mtimeMs: stats.mtimeMs });
      await walk(childAbsolute, childRelative, snapshot);
      continue;
    }
    const kind: EntryKind = stats.isFile() ? 'file' : stats.isSymbolicLink() ? 'symlink' : 'other';
    const entry: Entry = { kind, size: stats.size, mtimeMs: stats.mtimeMs };
    if (kind === 'file' && stats.size <= HASH_LIMIT) entry.hash = await hashOrUndefined(childAbsolute);
    snapshot.entries.set(childRelative, entry);
  }
}

async function hashOrUndefined(file: string): Promise<string | undefined> {
  try {
    return createHash('sha1').update(await readFile(file)).digest('hex');
  } catch {
    return undefined; // unreadable or gone: size and mtime still compare
  }
}

async function lstatOrNull(file: string, read = lstat) {
  try {
    return await read(file);
  } catch (error) {
    if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return null;
    throw new InputError(`cannot read ${file}: ${code(error) ?? String(error)}`);
  }
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
