import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { fileNameText } from '../render/file-name.js';

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
  /**
   * Keyed by path relative to the watched dir, '/'-separated; directories end in '/'. A key holds
   * the path's bytes, one character per byte (latin1): a name that is not UTF-8 keeps its own key
   * (see shownPath for the text).
   */
  entries: Map<string, Entry>;
  /**
   * Directories that could not be listed, by key ('' for the watched dir itself): reported as
   * warnings, never skipped silently, and one listed before the command but not after fails the run.
   */
  unreadable: { path: string; error: string }[];
  /** The real path of the directory the watched path links to, when it is a link. */
  linkTo?: string;
  /** What the command left at the watched path instead of the directory (a snapshot after it only). */
  notDirectory?: { kind: LeftKind; bytes: number };
}

/** A file, a link to nothing, a link to another directory than before, or a FIFO, socket or device. */
export type LeftKind = 'file' | 'link' | 'dirLink' | 'other';

/**
 * Linux stamps mtimes from a coarse clock, so a rewrite of the same size within one tick keeps
 * size and mtime. Hashing small files catches that; large files are rare in the dirs this
 * guards and cost too much to read twice.
 */
const HASH_LIMIT = 64 * 1024;

/**
 * `label` is the --watch value as given, for messages; `before` is given for the snapshot after
 * the command. Before the command a watched path that is not a directory is the user's mistake;
 * after it, the command put it there: a leak to report, never a reason to lose the report and the
 * command's exit code.
 */
export async function takeSnapshot(dir: string, label: string, before?: Snapshot): Promise<Snapshot> {
  const snapshot: Snapshot = { exists: false, entries: new Map(), unreadable: [] };
  // The watched dir itself may be a link to a directory (entries inside it are not followed).
  const root = await lstatOrNull(dir, stat);
  if (!root) {
    // A link left there that points nowhere: something the command left at the watched path.
    const link = before ? await lstatOrNull(dir) : null;
    if (link?.isSymbolicLink()) snapshot.notDirectory = { kind: 'link', bytes: link.size };
    return snapshot;
  }
  if (!root.isDirectory() && before) {
    snapshot.notDirectory = { kind: root.isFile() ? 'file' : 'other', bytes: root.size };
    return snapshot;
  }
  if (!root.isDirectory()) throw new InputError(`--watch ${label}: not a directory; pass the directory to watch`);
  const link = await lstatOrNull(dir);
  if (link?.isSymbolicLink()) snapshot.linkTo = await realpath(dir);
  // A directory (or a link to one) swapped for a link to another directory: what the command did
  // to the watched dir, perhaps moved away with its writes in it, is not where the link points.
  if (before && link?.isSymbolicLink() && snapshot.linkTo !== before.linkTo) {
    snapshot.notDirectory = { kind: 'dirLink', bytes: link.size };
    return snapshot;
  }
  snapshot.exists = true;
  await walk(Buffer.from(dir), '', snapshot);
  return snapshot;
}

/** A key of Snapshot.entries as text: each name as fileNameText shows it. */
export function shownPath(key: string): string {
  return key.split('/').map((name) => fileNameText(Buffer.from(name, 'latin1'))).join('/');
}

const SLASH = Buffer.from('/');

/**
 * Paths are Buffers: a name that is not UTF-8, read as a string, comes back with U+FFFD, which
 * lstat cannot find, and what such a directory holds would go unseen.
 */
async function walk(absolute: Buffer, relative: string, snapshot: Snapshot): Promise<void> {
  const dirKey = relative ? `${relative}/` : '';
  let names: Buffer[];
  try {
    names = await readdir(absolute, { encoding: 'buffer' });
  } catch (error) {
    if (code(error) === 'ENOENT') return; // removed while we looked: nothing there to record
    snapshot.unreadable.push({ path: dirKey, error: code(error) ?? String(error) });
    return;
  }
  for (const name of names.sort(Buffer.compare)) {
    const childAbsolute = Buffer.concat([absolute, SLASH, name]);
    const childRelative = `${dirKey}${name.toString('latin1')}`;
    let stats;
    try {
      stats = await lstat(childAbsolute);
    } catch (error) {
      if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') continue; // gone since listed
      // A dir that can be read but not searched (mode r--) lists names that cannot be looked at:
      // unreadable as a whole, never a reason to lose the report once the command has run.
      snapshot.unreadable.push({ path: dirKey, error: code(error) ?? String(error) });
      for (const key of snapshot.entries.keys()) if (key.length > dirKey.length && key.startsWith(dirKey)) snapshot.entries.delete(key);
      return;
    }
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

async function hashOrUndefined(file: Buffer): Promise<string | undefined> {
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
