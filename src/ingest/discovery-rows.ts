// Step 3 of a load: what discovery found besides files — the session dirs, the entries it
// skipped, the files' display paths — written when it differs from what the database holds.
import fs from 'node:fs';
import path from 'node:path';
import { type Database, insertRows } from '../db/database.js';
import { markLoadUnfinished } from '../db/unfinished-load.js';
import type { DiscoveredInputs, SkippedInput } from '../discover/discover-inputs.js';
import { FILE_ID_PATH_TABLES } from './database-root.js';
import { renamedSessionDirs } from './moved-files.js';
import type { Stored } from './stored-files.js';

interface DirRow {
  session_id: string;
  path: string;
  key: string | null;
}

/** Writes the session dirs and skipped entries of `inputs`; the load is marked unfinished until its files are in. */
export async function recordDiscovery(db: Database, discovered: DiscoveredInputs, stored: Map<string, Stored>, sessionsMoved: Map<string, string>): Promise<void> {
  const dirs = (await db.all(`SELECT session_id, path, key FROM session_dirs`)).rows as unknown as DirRow[];
  const moved = movedSessionDirs(dirs, discovered, sessionsMoved);
  const inputs = moved.length === 0 ? discovered : { ...discovered, skipped: [...discovered.skipped, ...moved.map((m) => m.entry)] };
  const renamed = [...renamedSessionDirs(dirs, inputs.sessionDirs), ...moved.map((m) => m.sessionId)];
  if (!(await discoveryChanged(db, inputs, stored, dirs, renamed))) return;
  await db.transaction(async () => {
    if (db.path !== null) await markLoadUnfinished(db);
    await deleteKeyed(db, 'session_dirs', 'session_id', [...inputs.sessionDirs.map((d) => d.sessionId), ...renamed]);
    await insertRows(db, 'session_dirs', ['session_id', 'path', 'key'], inputs.sessionDirs.map((d) => [d.sessionId, d.relPath, d.absPath]));
    const own = ownSkipped(inputs);
    const gone = (await db.all(`SELECT key, reason FROM skipped_inputs`)).rows.filter((r) => own(r.key as string, r.reason as string)).map((r) => r.key as string);
    await deleteKeyed(db, 'skipped_inputs', 'key', gone);
    await insertRows(db, 'skipped_inputs', ['key', 'path', 'reason'], inputs.skipped.map((s) => [s.absPath, s.relPath, s.reason]));
    const moved = inputs.files.filter((f) => stored.has(f.absPath) && stored.get(f.absPath)!.path !== f.relPath);
    for (const f of moved) {
      const id = stored.get(f.absPath)!.file_id;
      for (const table of FILE_ID_PATH_TABLES) await db.run(`UPDATE ${table} SET path = $path WHERE file_id = ${id}`, { path: f.relPath });
    }
  });
}

/** The start of skipped_inputs.reason of a session dir renamed with no link left (moved-files.ts). */
export const MOVED = 'moved: renamed to ';

/**
 * Stored session dirs gone from disk whose files this load found under another session dir: one
 * session, the renamed one. The old dir's row goes (it would count as a session of no events),
 * and the ledger says where it went, until something is at the old path again.
 */
function movedSessionDirs(dirs: DirRow[], inputs: DiscoveredInputs, sessionsMoved: Map<string, string>): { sessionId: string; entry: SkippedInput }[] {
  const named = new Map(inputs.sessionDirs.map((d) => [d.sessionId, d]));
  return dirs.flatMap((row) => {
    const to = named.get(sessionsMoved.get(row.session_id) ?? '');
    if (to === undefined || named.has(row.session_id) || row.key === null || fs.existsSync(row.key)) return [];
    return [{ sessionId: row.session_id, entry: { absPath: row.key, relPath: row.path, reason: `${MOVED}${to.relPath}, where its files are read (once)` } }];
  });
}

/** DELETE … WHERE column IN (values), 500 values a statement. */
async function deleteKeyed(db: Database, table: string, column: string, values: string[]): Promise<void> {
  for (let i = 0; i < values.length; i += 500) {
    const some = values.slice(i, i + 500);
    await db.runPositional(`DELETE FROM ${table} WHERE ${column} IN (${some.map(() => '?').join(', ')})`, some);
  }
}

function movedOrGone(dir: string): boolean {
  try {
    return fs.realpathSync.native(dir) !== dir;
  } catch {
    return true;
  }
}

/**
 * Whether session dirs (`dirs`, as stored), skipped files or display paths differ from what the
 * database holds; `renamed` are stored session dirs now another name for one this load names.
 */
async function discoveryChanged(db: Database, inputs: DiscoveredInputs, stored: Map<string, { path: string }>, dirs: DirRow[], renamed: string[]): Promise<boolean> {
  if (renamed.length > 0) return true;
  if (inputs.files.some((f) => stored.has(f.absPath) && stored.get(f.absPath)!.path !== f.relPath)) return true;
  const known = new Map(dirs.map((r) => [r.session_id, r]));
  if (inputs.sessionDirs.some((d) => known.get(d.sessionId)?.path !== d.relPath || known.get(d.sessionId)?.key !== d.absPath)) return true;
  const own = ownSkipped(inputs);
  const skipped = (await db.all(`SELECT key, path, reason FROM skipped_inputs ORDER BY key`)).rows.filter((r) => own(r.key as string, r.reason as string));
  const now = [...inputs.skipped].sort((a, b) => (a.absPath < b.absPath ? -1 : 1));
  return skipped.length !== now.length || skipped.some((r, i) => r.key !== now[i].absPath || r.path !== now[i].relPath || r.reason !== now[i].reason);
}

/**
 * A skipped entry this load replaces: under a directory it listed, skipped by it again, or a file
 * it reads. Entries under directories it did not list stay (a load of one session keeps the rest).
 */
function ownSkipped(inputs: DiscoveredInputs): (key: string, reason: string) => boolean {
  // A file named directly is its own scope: read now, its old entry (outside a window) goes.
  const again = new Set([...inputs.skipped.map((s) => s.absPath), ...inputs.files.map((f) => f.absPath)]);
  // A session dir renamed stays said to be, until something is at its old path again.
  const moved = (key: string, reason: string) => reason.startsWith(MOVED) && !fs.existsSync(key);
  // An entry whose directory is gone is stale, whoever lists it (a linked session dir pruned or
  // moved); so is one whose directory (a real path when stored) now leads through a link: moved.
  return (key, reason) => again.has(key) || (!moved(key, reason) && (inputs.scopes.some((dir) => key === dir || key.startsWith(dir + path.sep)) || movedOrGone(path.dirname(key))));
}
