// Directory listings for discovery: entries by name (links as what they point to), and what
// could not be listed or named, for the ledger of skipped entries.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { escapedName } from '../render/file-name.js';
import { unreadableReason } from './unreadable.js';
import type { WalkEntry as Entry } from './walker.js';

/** Paths (with escaped names) of the entries whose names are not UTF-8: lstat cannot find them either. */
export const undecodable = new Set<string>();

/** Directories that could not be listed (permissions, a failing disk), with the ledger's reason. */
export const unlistable = new Map<string, string>();

/** A directory's entries; an error listing it (a named path's) stops the command. */
export function entries(dir: string): Entry[] {
  try {
    return readEntries(dir);
  } catch (error) {
    throw new InputError(`cannot read directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? error}; check its permissions`);
  }
}

/** A directory's entries, or none for one that cannot be listed: it is skipped with its reason (see Collector.skip in discover-inputs.ts). */
export function listing(dir: string): Entry[] {
  try {
    return readEntries(dir);
  } catch (error) {
    if (vanished(error)) return []; // removed since its parent was listed
    const reason = unreadableReason(error);
    if (reason === null) throw error;
    unlistable.set(dir, reason);
    return [];
  }
}

function readEntries(dir: string): Entry[] {
  const dirents = fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  const listed = dirents.map((e) => ({ dirent: e, name: isUtf8(e.name) ? e.name.toString('utf8') : escapedName(e.name) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return listed.map(({ dirent: e, name }) => {
    // A name that is not UTF-8 cannot be opened through a JavaScript string: neither a file nor
    // a directory here, so it is skipped (see Collector.skip in discover-inputs.ts).
    if (!isUtf8(e.name)) {
      undecodable.add(path.join(dir, name));
      return { name, isFile: false, isDirectory: false, link: false };
    }
    if (!e.isSymbolicLink()) return { name, isFile: e.isFile(), isDirectory: e.isDirectory(), link: false };
    try {
      const target = fs.statSync(path.join(dir, name));
      return { name, isFile: target.isFile(), isDirectory: target.isDirectory(), link: true };
    } catch {
      return { name, isFile: false, isDirectory: false, link: true }; // a broken link: skipped, and said so
    }
  });
}

/** An entry that was listed a moment ago and is gone now (sid-code prunes and creates sessions as it runs). */
export const vanished = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** The real path, or null for an entry gone since it was listed. */
export function realOrGone(abs: string): string | null {
  try {
    return fs.realpathSync.native(abs);
  } catch (error) {
    if (vanished(error)) return null;
    throw error;
  }
}

/** Real entries before links (a stable sort), so that a link to a directory beside it is seen as the alias it is. */
export const linksLast = (listed: Entry[]) => listed.sort((a, b) => Number(a.link) - Number(b.link));

