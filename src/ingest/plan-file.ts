// Decides what a load must do with one file, given what the database remembers of it.
// Identity = path + content: unchanged size/mtime/head → skip; the same head and the same bytes
// before the old end → read only the new tail; anything else → reload the file from scratch.
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
}

export type FilePlan =
  | { action: 'unchanged' }
  | { action: 'append'; startOffset: number; lineBase: number }
  | { action: 'load' }
  | { action: 'reload' };

/** What planning and the ledger use of a file's stat. */
export type FileStat = Pick<fs.Stats, 'size' | 'mtime'>;

export function planFile(absPath: string, stat: FileStat, stored: StoredFile | undefined, appendable: boolean): FilePlan {
  if (!stored) return { action: 'load' };
  if (stat.size < stored.bytes) return { action: 'reload' };
  const sameHead = stored.head_hash === headHash(absPath, stored.bytes);
  if (stat.size === stored.bytes && stored.mtime === stat.mtime.toISOString() && sameHead) return { action: 'unchanged' };
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
