// A home moved (to another disk, often with a link left at its old place) names its files under
// new real paths. A file is identified by its path under the root plus its content, not by
// where the root lies: a file new to the database that is a stored file moved is that
// file, to be re-keyed, not loaded a second time.
import fs from 'node:fs';
import path from 'node:path';
import type { SessionDir, SourceFile } from '../discover/discover-inputs.js';
import { holdsLoaded } from './plan-file.js';
import type { Stored } from './stored-files.js';

/** The stored file at `key` as it is now: its real path, or null when no file is there. */
function realFile(key: string): string | null {
  try {
    return fs.statSync(key).isFile() ? fs.realpathSync.native(key) : null;
  } catch {
    return null; // gone, or a directory on its path is now a file (ENOTDIR)
  }
}

/** The directory's real path, or null when it is gone. */
function realDir(dir: string): string | null {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return null;
  }
}

const identity = (kind: string, sessionId: string | null, key: string) => `${kind}\0${sessionId ?? ''}\0${path.basename(key)}`;
const nameOnly = (kind: string, key: string) => `${kind}\0${path.basename(key)}`;

function add<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

/**
 * The stored files (by key) that this load names under a new key, each with the file it is now.
 * A stored file this load does not name is a new file when its key now leads through a link to
 * that very file (one file on disk, of the same kind), or when it is gone from disk and the new
 * file has its kind, session and file name and either still begins with what was loaded from it
 * (the fingerprints plan-file.ts reads) or, given the `root` the files' paths are under (the
 * database's, as stored), has its path: a file replaced at its path, which the plan then reloads.
 * A stored file gone from disk whose path under that root now leads through a link to a new file
 * is that file too: a home moved, in which a session dir was renamed with a link left at its old
 * name (the plan reloads it as the renamed session's). So is one gone from a session dir whose
 * name and kind a new file under another session dir has, and whose loaded content it begins
 * with: a session dir renamed with no link left (reloaded as the renamed session's, once).
 * Only a one-to-one match counts: two files never become one. The disk is read only when this
 * load names a file the database does not hold.
 */
export function findMoves(stored: Map<string, Stored>, files: SourceFile[], root: string | null): Map<string, SourceFile> {
  const moves = new Map<string, SourceFile>();
  const fresh = files.filter((f) => !stored.has(f.absPath));
  if (fresh.length === 0) return moves;
  const named = new Set(files.map((f) => f.absPath));
  const linked = new Map<string, string[]>();
  const gone = new Map<string, string[]>();
  const goneFromSession = new Map<string, string[]>();
  for (const [key, entry] of stored) {
    if (named.has(key)) continue;
    const real = realFile(key);
    if (real !== null) {
      if (real !== key) add(linked, real, key);
      continue;
    }
    add(gone, identity(entry.kind, entry.session_id, key), key);
    // Empty files all begin alike: content tells nothing of them.
    if (entry.session_id !== null && entry.bytes > 0) add(goneFromSession, nameOnly(entry.kind, key), key);
    const place = root === null ? null : path.join(root, ...entry.path.split('/'));
    const there = place === null ? null : realFile(place);
    if (there !== null && there !== place) add(linked, there, key);
  }
  if (linked.size === 0 && gone.size === 0) return moves;
  const matches = new Map<SourceFile, string[]>();
  const matchedBy = new Map<string, SourceFile[]>();
  for (const file of fresh) {
    const through = (linked.get(file.absPath) ?? []).filter((key) => stored.get(key)!.kind === file.kind);
    let candidates = through;
    if (through.length === 0) {
      const size = fs.statSync(file.absPath, { throwIfNoEntry: false })?.size ?? -1;
      const same = (key: string) => (root !== null && stored.get(key)!.path === file.relPath) || holdsLoaded(file.absPath, size, stored.get(key)!);
      candidates = (gone.get(identity(file.kind, file.sessionId, file.absPath)) ?? []).filter(same);
      // A session dir renamed with no link left: the file under the new session's name still
      // begins with what was loaded from it under the old one.
      // (Not where the root is being found, root null: a renamed dir tells nothing of where it went.)
      if (candidates.length === 0 && file.sessionId !== null && root !== null) {
        const renamed = (key: string) => stored.get(key)!.session_id !== file.sessionId && holdsLoaded(file.absPath, size, stored.get(key)!);
        candidates = (goneFromSession.get(nameOnly(file.kind, file.absPath)) ?? []).filter(renamed);
      }
    }
    matches.set(file, candidates);
    for (const key of candidates) add(matchedBy, key, file);
  }
  for (const [file, keys] of matches) if (keys.length === 1 && matchedBy.get(keys[0])!.length === 1) moves.set(keys[0], file);
  return moves;
}

/**
 * The session ids of stored session dirs (`session_dirs` rows) that this load does not name and
 * whose directory now leads to one it names under another id: a session dir renamed with a link
 * left at its old name (`mv s1 s1-renamed; ln -s s1-renamed s1`). Discovery skips such a link as
 * another name for the dir, so the old id is no session of its own any more (its files are
 * reloaded as the renamed one's). A dir gone from disk keeps its row, as its files keep theirs
 * (sid-code prunes old sessions). The disk is read only for rows this load does not name.
 */
export function renamedSessionDirs(rows: { session_id: string; key: string | null }[], dirs: SessionDir[]): string[] {
  const named = new Set(dirs.map((d) => d.sessionId));
  const others = rows.filter((r) => !named.has(r.session_id) && r.key !== null);
  if (others.length === 0) return [];
  const real = new Set(dirs.map((d) => realDir(d.absPath)).filter((d) => d !== null));
  return others.filter((r) => {
    const now = realDir(r.key!);
    return now !== null && real.has(now);
  }).map((r) => r.session_id);
}
