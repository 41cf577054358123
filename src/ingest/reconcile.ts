// Step 1 of a load: what the database holds, brought in line with the files as they are now,
// before anything is planned (files that moved, copies now skipped, heartbeats a session ended).
import fs from 'node:fs';
import path from 'node:path';
import { type Database, insertRows } from '../db/database.js';
import { markLoadUnfinished } from '../db/unfinished-load.js';
import type { DiscoveredInputs } from '../discover/discover-inputs.js';
import { adapters } from './adapters/index.js';
import { FILE_ID_PATH_TABLES } from './database-root.js';
import { findMoves } from './moved-files.js';
import { type Stored, storedFiles } from './stored-files.js';

export interface Reconciled {
  /** The stored files by key, once reconciled with the inputs. */
  stored: Map<string, Stored>;
  /** Session ids whose files this load found under another session dir (renamed), with that session's id. */
  sessionsMoved: Map<string, string>;
  /** The files whose rows went. */
  dropped: Stored[];
}

export async function reconcileStored(db: Database, inputs: DiscoveredInputs): Promise<Reconciled> {
  await rekeyToRealPaths(db);
  const stored = await storedFiles(db);
  const sessionsMoved = await adoptMoved(db, stored, inputs);
  const dropped = [...(await dropEndedHeartbeats(db, stored, inputs.root)), ...(await dropDuplicates(db, stored, inputs))];
  return { stored, sessionsMoved, dropped };
}

/** A file is gone when nothing is at its path, or something that is not a file (a directory). */
export function isFile(key: string): boolean {
  try {
    return fs.statSync(key).isFile();
  } catch {
    return false; // gone, or a directory on its path is now a file (ENOTDIR)
  }
}

/** Deletes the rows of stored files, their ledger entries with them; gives those files. */
async function dropFiles(db: Database, stored: Map<string, Stored>, keys: string[]): Promise<Stored[]> {
  const files = keys.map((key) => stored.get(key)!);
  await db.transaction(async () => {
    // Rows go: the tables made from all rows are made again at the load's end (ingest.ts).
    if (db.path !== null) await markLoadUnfinished(db);
    for (const key of keys) {
      const file = stored.get(key)!;
      for (const table of [...adapters[file.kind].tables, 'input_problems', 'input_files']) await db.run(`DELETE FROM ${table} WHERE file_id = $id`, { id: file.file_id });
      stored.delete(key);
    }
  });
  return files;
}

/**
 * Databases written before files were keyed by their real path keyed them by the path as named:
 * once, rekey those that reach a file through a link, so that it is not loaded a second time.
 * A file such a database holds twice (through a link and directly) keeps one copy of its rows.
 */
async function rekeyToRealPaths(db: Database): Promise<void> {
  if (db.path === null) return;
  const done = await db.all(`SELECT count(*) AS n FROM trajaudit_meta WHERE key = 'file_keys' AND value = 'real'`);
  if (done.rows[0].n === 1) return;
  const rows = (await db.all(`SELECT file_id, key, kind FROM input_files ORDER BY file_id`)).rows;
  const keys = new Set(rows.map((r) => r.key as string));
  await db.transaction(async () => {
    for (const row of rows) {
      const key = row.key as string;
      const real = fs.existsSync(key) ? fs.realpathSync.native(key) : key;
      if (real === key) continue;
      const id = row.file_id as number;
      if (keys.has(real)) {
        for (const table of [...adapters[row.kind as keyof typeof adapters].tables, 'input_problems', 'input_files']) {
          await db.run(`DELETE FROM ${table} WHERE file_id = $id`, { id });
        }
        continue;
      }
      keys.add(real);
      await db.run(`UPDATE input_files SET key = $real WHERE file_id = $id`, { real, id });
    }
    await db.run(`INSERT OR REPLACE INTO trajaudit_meta VALUES ('file_keys', 'real')`);
  });
}

/**
 * Stored files this load names under a new key (a home moved, see moved-files.ts) take that key
 * and its path, in one transaction, instead of being loaded a second time beside their old rows.
 */
async function adoptMoved(db: Database, stored: Map<string, Stored>, inputs: DiscoveredInputs): Promise<Map<string, string>> {
  const moves = findMoves(stored, inputs.files, inputs.root);
  const sessionsMoved = new Map<string, string>();
  for (const [key, file] of moves) {
    const from = stored.get(key)!.session_id;
    if (from !== null && file.sessionId !== null && from !== file.sessionId) sessionsMoved.set(from, file.sessionId);
  }
  if (moves.size === 0) return sessionsMoved;
  const rows = [...moves].map(([key, file]) => [stored.get(key)!.file_id, file.absPath, file.relPath]);
  await db.transaction(async () => {
    await db.run(`CREATE OR REPLACE TEMP TABLE moved_files (file_id BIGINT, key VARCHAR, path VARCHAR)`);
    await insertRows(db, 'moved_files', ['file_id', 'key', 'path'], rows);
    await db.run(`UPDATE input_files SET key = m.key FROM moved_files m WHERE input_files.file_id = m.file_id`);
    for (const table of FILE_ID_PATH_TABLES) await db.run(`UPDATE ${table} SET path = m.path FROM moved_files m WHERE ${table}.file_id = m.file_id`);
    await db.run(`DROP TABLE moved_files`);
  });
  for (const [key, file] of moves) {
    const entry = stored.get(key)!;
    stored.delete(key);
    stored.set(file.absPath, { ...entry, path: file.relPath });
  }
  return sessionsMoved;
}

/** Why discovery skips an entry that is another copy or another name of what it reads (discover-inputs.ts). */
const DUPLICATE = /^another (copy of|name for) /;

/**
 * Stored files this load skips as another copy or another name of what it reads (an archive copy
 * of a session dir once the live dir is there, a file replaced by a link to a sibling session's
 * file), themselves or under a directory skipped so: a fresh load of the tree does not read
 * them, so their rows go. Kept, they were added up with the copy read, and `sources` listed the
 * file both as read and as skipped.
 */
async function dropDuplicates(db: Database, stored: Map<string, Stored>, inputs: DiscoveredInputs): Promise<Stored[]> {
  const duplicates = new Set(inputs.skipped.filter((s) => DUPLICATE.test(s.reason)).map((s) => s.absPath));
  if (duplicates.size === 0) return [];
  const named = new Set(inputs.files.map((f) => f.absPath));
  const skippedAsCopy = (key: string) => {
    for (let at = key; ; at = path.dirname(at)) {
      if (duplicates.has(at)) return true;
      if (path.dirname(at) === at) return false;
    }
  };
  const dropped = [...stored.keys()].filter((key) => !named.has(key) && skippedAsCopy(key));
  return dropped.length > 0 ? dropFiles(db, stored, dropped) : [];
}

/**
 * sid-code deletes heartbeat.txt at a clean SessionEnd (docs/formats.md#heartbeattxt): one gone from a session
 * directory that is still there is that signal, not lost history, so its rows go too. Any other
 * file that is gone keeps its rows (sid-code prunes old sessions; the database keeps them).
 * The directory is still there at its old place, or at the same path under the `root` (the
 * database's, which follows a home that moved; a link left at a renamed session dir's old name
 * leads to it). Moved files are re-keyed first (adoptMoved), so a heartbeat found is kept.
 */
async function dropEndedHeartbeats(db: Database, stored: Map<string, Stored>, root: string): Promise<Stored[]> {
  const dirThere = (key: string, file: Stored) => fs.existsSync(path.dirname(key)) || fs.existsSync(path.dirname(path.join(root, ...file.path.split('/'))));
  const ended = [...stored].filter(([key, file]) => file.kind === 'heartbeat' && !isFile(key) && dirThere(key, file)).map(([key]) => key);
  return ended.length > 0 ? dropFiles(db, stored, ended) : [];
}
