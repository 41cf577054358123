// A database file keeps one root for the relative paths it shows: the first load's, widened when a
// later load names paths outside it. A later load of a subset (one session dir, one events.jsonl)
// then shows the same paths as before, and two files never share a path
// (`trajectories/sessions/A/events.jsonl`, not `events.jsonl` for every file named alone).
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/database.js';
import { commonDirectory, type DiscoveredInputs } from '../discover/discover-inputs.js';
import { findMoves } from './moved-files.js';
import { storedFiles } from './stored-files.js';

/** Tables whose rows carry their file's `path` (relative to the root) beside its file_id. */
export const FILE_ID_PATH_TABLES = ['input_files', 'input_problems', 'task_outputs'];
/** Tables whose `path` is a file's, relative to the root (session_dirs keeps its dir as `key`). */
const FILE_PATH_TABLES = [...FILE_ID_PATH_TABLES, 'skipped_inputs'];

const posix = (relative: string) => relative.split(path.sep).join('/');
const under = (prefix: string, relPath: string) => (prefix === '' ? relPath : `${prefix}/${relPath}`);
/** A session directory's path under `root`; the root itself is `.` (as discovery gives it). */
const dirUnder = (root: string, dir: string) => posix(path.relative(root, dir)) || '.';

/**
 * A database from before the root was stored: its files' paths were relative to whichever load
 * last read them. The widest root under which a file's key ends in its path is taken, and every
 * file under it gets its path from its key again, so that one root holds for all of them.
 */
async function formerRoot(db: Database): Promise<string | undefined> {
  const rows = (await db.all(`SELECT key, path FROM input_files WHERE ends_with(key, '/' || path)`)).rows;
  if (rows.length === 0) return undefined;
  const root = commonDirectory(rows.map((r) => (r.key as string).slice(0, -((r.path as string).length + 1))));
  await db.transaction(async () => {
    await db.run(`UPDATE input_files SET path = substr(key, length($root) + 2) WHERE starts_with(key, $root || '/')`, { root });
    await db.run(`UPDATE input_problems SET path = f.path FROM input_files f WHERE input_problems.file_id = f.file_id`);
    await db.run(`UPDATE task_outputs SET path = f.path FROM input_files f WHERE task_outputs.file_id = f.file_id`);
  });
  return root;
}

/**
 * Where the root is now, with the paths under it unchanged: a root that leads through a link (a
 * home moved, a link left at its old place) is the directory it leads to; one gone from disk is
 * where this load's moved files (moved-files.ts) put it, when they all agree.
 */
async function rootNow(db: Database, root: string, inputs: DiscoveredInputs): Promise<string> {
  if (fs.existsSync(root)) return fs.realpathSync.native(root);
  const stored = await storedFiles(db);
  const places = new Set<string>();
  for (const [key, file] of findMoves(stored, inputs.files, null)) {
    const was = stored.get(key)!.path;
    const now = posix(path.join(inputs.root, file.relPath));
    if (!now.endsWith(`/${was}`)) return root;
    places.add(now.slice(0, -(was.length + 1)));
  }
  return places.size === 1 ? [...places][0].split('/').join(path.sep) : root;
}

/** Rebases `inputs` onto the database's root (widening it, and the stored paths, when needed). */
export async function rootInputs(db: Database, inputs: DiscoveredInputs): Promise<DiscoveredInputs> {
  if (db.path === null) return inputs;
  const kept = (await db.all(`SELECT value FROM trajaudit_meta WHERE key = 'root'`)).rows[0]?.value as string | undefined;
  // A database from before the root was stored moves with its home as well.
  const former = kept ?? (await formerRoot(db));
  const stored = former === undefined ? undefined : await rootNow(db, former, inputs);
  const root = stored === undefined ? inputs.root : commonDirectory([stored, inputs.root]);
  if (kept !== root) {
    await db.transaction(async () => {
      if (former !== undefined && stored !== former) {
        await db.run(`UPDATE session_dirs SET key = $stored || substr(key, length($former) + 1) WHERE key = $former OR starts_with(key, $former || '/')`, { stored: stored!, former });
      }
      if (stored !== undefined && stored !== root) {
        const prefix = posix(path.relative(root, stored));
        for (const table of FILE_PATH_TABLES) await db.run(`UPDATE ${table} SET path = $prefix || '/' || path`, { prefix });
        const dirs = await db.all(`SELECT session_id, path, key FROM session_dirs`);
        for (const d of dirs.rows) {
          // A row from before session_dirs.key: the root itself showed as its own name.
          const moved = typeof d.key === 'string' ? dirUnder(root, d.key) : d.path === path.basename(stored) ? prefix : under(prefix, d.path as string);
          await db.run(`UPDATE session_dirs SET path = $moved WHERE session_id = $id`, { moved, id: d.session_id as string });
        }
      }
      await db.run(`INSERT OR REPLACE INTO trajaudit_meta VALUES ('root', $root)`, { root });
    });
  }
  if (root === inputs.root) return inputs;
  const prefix = posix(path.relative(root, inputs.root));
  return {
    root,
    files: inputs.files.map((f) => ({ ...f, relPath: under(prefix, f.relPath) })),
    sessionDirs: inputs.sessionDirs.map((d) => ({ ...d, relPath: dirUnder(root, d.absPath) })),
    skipped: inputs.skipped.map((s) => ({ ...s, relPath: under(prefix, s.relPath) })),
    scopes: inputs.scopes,
  };
}
