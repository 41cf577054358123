// Decides what a load must do with one file, given what the database remembers of it.
// Identity = path + content: unchanged size/mtime and the same stat stamp or head → skip; the same
// head and the same bytes before the old end → read only the new tail; anything else → reload it.
import fs from 'node:fs';
import { headHash, tailHash } from './fingerprint.js';

export interface StoredFile {
  file_id: number;
  bytes: number;
  mtime: string | null;
  head_hash: string;
  complete_bytes: number;
  complete_lines: number;
  tail_hash: string;
  /** statStamp when the file was last read or found unchanged, if it had settled (settledStamp); else null. */
  stat_stamp: string | null;
}

export type FilePlan =
  | { action: 'unchanged' }
  | { action: 'append'; startOffset: number; lineBase: number }
  | { action: 'load' }
  | { action: 'reload' };

/** What planning and the ledger use of a file's stat, with its settledStamp. */
export type FileStat = Pick<fs.Stats, 'size' | 'mtime'> & { stamp: string | null };

/**
 * A file's device, inode and inode change time. Every write, truncation, rename onto it or chmod
 * sets the change time, and no call sets it back: the same stamp is the same bytes (as git's index trusts).
 */
export const statStamp = (stat: Pick<fs.Stats, 'dev' | 'ino' | 'ctimeMs'>) => `${stat.dev}:${stat.ino}:${stat.ctimeMs}`;

/** A change this recent could be followed by another within the same clock tick, leaving the same change time. */
const SETTLE_MS = 2000;

/** The stamp a load may trust next time: none for a file changed within SETTLE_MS of `now`. */
export const settledStamp = (stat: Pick<fs.Stats, 'dev' | 'ino' | 'ctimeMs'>, now: number) => (stat.ctimeMs < now - SETTLE_MS ? statStamp(stat) : null);

export function planFile(absPath: string, stat: FileStat, stored: StoredFile | undefined, appendable: boolean): FilePlan {
  if (!stored) return { action: 'load' };
  if (stat.size < stored.bytes) return { action: 'reload' };
  // Unchanged by its stamp: not opened (an unchanged re-run of a large home stats each file and reads none).
  const sameStat = stat.size === stored.bytes && stored.mtime === stat.mtime.toISOString();
  if (sameStat && stat.stamp !== null && stat.stamp === stored.stat_stamp) return { action: 'unchanged' };
  const sameHead = stored.head_hash === headHash(absPath, stored.bytes);
  if (sameStat && sameHead) return { action: 'unchanged' };
  // Appending is the only change a writer makes here, and it always grows the file: the same
  // size with a new mtime is an edit in place, even where a cut last line was.
  const grown = stat.size > stored.bytes;
  if (appendable && grown && sameHead && stored.tail_hash === tailHash(absPath, stored.complete_bytes)) {
    return { action: 'append', startOffset: stored.complete_bytes, lineBase: stored.complete_lines };
  }
  return { action: 'reload' };
}

/** Whether the file still begins with the bytes a load read from it, as far as the fingerprints tell. */
export function holdsLoaded(absPath: string, size: number, stored: StoredFile): boolean {
  return size >= stored.bytes && stored.head_hash === headHash(absPath, stored.bytes) && stored.tail_hash === tailHash(absPath, stored.complete_bytes);
}
