// Discovered files → tables. JSONL files are written in transactions of about GROUP_BYTES,
// small files parsed in Node (warn.log, summaries, heartbeats, task outputs) in transactions of
// up to SMALL_BATCH files. An interrupted load (Ctrl-C, kill -9) leaves the database as it was
// before the group it was writing, never with part of a file; the next run completes it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Progress } from '../command-result.js';
import { type Database, DEFAULT_FILE_MEMORY_LIMIT, insertRows } from '../db/database.js';
import type { DiscoveredInputs, SourceFile } from '../discover/discover-inputs.js';
import { InputError, noSpaceError, OutOfMemoryError, readFailedError } from '../errors.js';
import type { Adapter } from './adapters/adapter.js';
import { adapters } from './adapters/index.js';
import { collectGarbage } from './collect-garbage.js';
import { FILE_ID_PATH_TABLES } from './database-root.js';
import { firstEventTime, lastEventTime } from './first-event-time.js';
import { HASH_BLOCK, headHash, tailHash } from './fingerprint.js';
import type { LineLedger } from './line-ledger.js';
import { findMoves, renamedSessionDirs } from './moved-files.js';
import { type FilePlan, type FileStat, planFile } from './plan-file.js';
import { RowBatch } from './row-batch.js';
import { type RssGuard, startRssGuard } from './rss-guard.js';
import { DirectReadRefused } from './load-jsonl-direct.js';
import { type LineScan, scanLines } from './scan-lines.js';
import { ReaderRefused } from './stage-jsonl.js';
import { type Stored, storedFiles } from './stored-files.js';
import { environment, sizeInBytes } from '../environment.js';
import { clearLoadUnfinished, markLoadUnfinished } from '../db/unfinished-load.js';

export interface TimeWindow {
  since?: Date;
  until?: Date;
}

export interface IngestSummary {
  files: number;
  loaded: number;
  appended: number;
  reloaded: number;
  unchanged: number;
  outsideWindow: number;
  /** The files the window left unread, with their last write: where the inputs' times lie (input-span.ts). */
  unread: UnreadFile[];
  bytesRead: number;
  malformed: number;
  /** Paths (as stored) of files in the database that are gone from disk; their rows are kept (see dropEndedHeartbeats). */
  gone: string[];
}

export interface UnreadFile {
  file: SourceFile;
  mtime: Date;
}

/** skipped_inputs.reason of a file a --since/--until window left unread (loadInputs warns of them). */
export const OUTSIDE_WINDOW = 'outside the --since/--until window it was loaded with: not read yet (trajaudit load without a window reads it)';

// Hook events carry the hook-input time, a little before the write that set the file's mtime.
const MTIME_SLACK_MS = 10 * 60 * 1000;
// Small files commit in batches of up to SMALL_BATCH files or SMALL_BATCH_BYTES (a commit costs
// tens of ms; a batch's rows are in memory until they are flushed, see loadSmall).
const SMALL_BATCH = 2000;
const SMALL_BATCH_BYTES = 4 * 1024 * 1024;
const FLUSH_EVERY = 200;
// The small files' garbage is collected when V8's heap has grown by this since the last
// collection (see collect-garbage.ts); a small home is not worth the ~50 ms.
const GC_GROWTH_BYTES = 64 * 1024 * 1024;
// After the last batch, less: nothing later allocates enough to collect it, and it sat beside
// DuckDB's peak (1 GiB home: 60 MB of heap left, peak RSS 428 MB against 383 MB; measured).
const GC_LAST_GROWTH_BYTES = 32 * 1024 * 1024;
// TRAJAUDIT_COMMIT_BYTES trades load speed for less work redone after an interrupted load. At
// commit DuckDB writes a transaction's last, partial row group (up to 122,880 rows) to the WAL,
// and the checkpoint writes it again; full row groups were written to the file already. 64 MiB
// groups (~230,000 events) sent about half of all rows through the WAL: 256 MiB loaded a 1 GiB
// home in 8.0–9.4 s against 9.7–11.7 s, and 5 GiB in 41.9 s against 49.0 s, at the same peak RSS.
// Read through environment.ts, which checks the values (openDatabase did, before any input).
const GROUP_BYTES = environment().commitBytes ?? 256 * 1024 * 1024;
// Files read the staged way (a grown file's new lines) per commit group, at most. Each one's
// scratch table keeps a block of DuckDB's pool (256 KiB) until the commit: in one group, 800 grown
// files of a line each filled the 192 MB pool and the load crawled (2,500: still going after 10
// minutes; 600 took 10.6 s). Groups of 32: 800 in 12.3–13.6 s and 2,500 in 39 s, linear; groups of
// 64–200 took 11.4–12.4 s for 800 at 180–215 MB of RSS against 150–160 MB (measured, 2 cores).
const STAGED_PER_GROUP = 32;
// Files per commit group, at most: a home of many small sessions (2,000 events.jsonl of 2 lines)
// went whole to one connection as a single group, the other idle; groups of 256 share them out
// (9.1 s → 7.4 s; 64 gave 7.5 s, measured). A home of large files reaches GROUP_BYTES first.
const FILES_PER_GROUP = 256;
// Whole files up to this size are read a batch at a time, one statement per commit group and kind
// (loadJsonlBatch): a statement costs ~2–3 ms whatever the file's size, which a file this small
// takes about as long to read.
const BATCH_FILE_BYTES = 128 * 1024;
// TRAJAUDIT_READER=staged reads every JSONL file line by line first, as files the direct path refuses are.
const DIRECT_READER = environment().reader === 'direct';
const PARALLEL = environment().parallel ?? Math.max(1, Math.min(2, os.availableParallelism()));

/**
 * The RSS a load into a file holds to: DuckDB's buffer pool and what the rest of the process takes
 * beside it (Node, DuckDB's code, the metadata of the tables). At the default pool, freed memory
 * goes back at once above 420 MB; the 5 GiB home peaked at 453–457 MB (target: < 500 MB).
 */
function rssCeiling(): { high: number; low: number } {
  const high = sizeInBytes(environment().memoryLimit ?? DEFAULT_FILE_MEMORY_LIMIT) + 228e6;
  return { high, low: high - 40e6 };
}

const FILE_COLUMNS = ['file_id', 'key', 'path', 'kind', 'session_id', 'bytes', 'lines', 'valid', 'blank', 'malformed', 'mtime',
  'head_hash', 'complete_bytes', 'complete_lines', 'tail_hash', 'min_ts', 'max_ts', 'loaded_at'];
const PROBLEM_COLUMNS = ['file_id', 'path', 'line', 'byte_offset', 'kind', 'reason', 'excerpt'];

interface Work {
  file: SourceFile;
  adapter: Adapter;
  /**
   * What is used of the file's stat, not the fs.Stats: each of those holds four Dates and a dozen
   * heap numbers, ~0.8 KB; the 32,000 of a 5 GiB home were 25 MB of load's 46 MB of V8 heap.
   */
  stat: FileStat;
  previous?: Stored;
  plan: Exclude<FilePlan, { action: 'unchanged' }>;
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

/** A file is gone when nothing is at its path, or something that is not a file (a directory). */
function isFile(key: string): boolean {
  try {
    return fs.statSync(key).isFile();
  } catch {
    return false; // gone, or a directory on its path is now a file (ENOTDIR)
  }
}

/**
 * Stored files this load names under a new key (a home moved, see moved-files.ts) take that key
 * and its path, in one transaction, instead of being loaded a second time beside their old rows.
 */
async function adoptMoved(db: Database, stored: Map<string, Stored>, inputs: DiscoveredInputs): Promise<void> {
  const moves = findMoves(stored, inputs.files, inputs.root);
  if (moves.size === 0) return;
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
async function dropDuplicates(db: Database, stored: Map<string, Stored>, inputs: DiscoveredInputs): Promise<void> {
  const duplicates = new Set(inputs.skipped.filter((s) => DUPLICATE.test(s.reason)).map((s) => s.absPath));
  if (duplicates.size === 0) return;
  const named = new Set(inputs.files.map((f) => f.absPath));
  const skippedAsCopy = (key: string) => {
    for (let at = key; ; at = path.dirname(at)) {
      if (duplicates.has(at)) return true;
      if (path.dirname(at) === at) return false;
    }
  };
  const dropped = [...stored].filter(([key]) => !named.has(key) && skippedAsCopy(key));
  if (dropped.length === 0) return;
  await db.transaction(async () => {
    for (const [key, file] of dropped) {
      for (const table of [...adapters[file.kind].tables, 'input_problems', 'input_files']) await db.run(`DELETE FROM ${table} WHERE file_id = $id`, { id: file.file_id });
      stored.delete(key);
    }
  });
}

/**
 * sid-code deletes heartbeat.txt at a clean SessionEnd (formats doc §5): one gone from a session
 * directory that is still there is that signal, not lost history, so its rows go too. Any other
 * file that is gone keeps its rows (sid-code prunes old sessions; the database keeps them).
 * The directory is still there at its old place, or at the same path under the `root` (the
 * database's, which follows a home that moved; a link left at a renamed session dir's old name
 * leads to it). Moved files are re-keyed first (adoptMoved), so a heartbeat found is kept.
 */
async function dropEndedHeartbeats(db: Database, stored: Map<string, Stored>, root: string): Promise<void> {
  const dirThere = (key: string, file: Stored) => fs.existsSync(path.dirname(key)) || fs.existsSync(path.dirname(path.join(root, ...file.path.split('/'))));
  const ended = [...stored].filter(([key, file]) => file.kind === 'heartbeat' && !isFile(key) && dirThere(key, file));
  if (ended.length === 0) return;
  await db.transaction(async () => {
    for (const [key, file] of ended) {
      for (const table of [...adapters.heartbeat.tables, 'input_problems', 'input_files']) await db.run(`DELETE FROM ${table} WHERE file_id = $id`, { id: file.file_id });
      stored.delete(key);
    }
  });
}

async function clearRows(db: Database, work: Work[], fromLine: (w: Work) => number): Promise<void> {
  const reloads = work.filter((w) => w.previous);
  for (const w of reloads) {
    const id = w.previous!.file_id;
    const from = fromLine(w);
    const lineFilter = w.adapter.appendable ? ` AND line > ${from}` : '';
    for (const table of w.adapter.tables) await db.run(`DELETE FROM ${table} WHERE file_id = ${id}${lineFilter}`);
    // A file read as another kind before (reached under another name now) is reloaded whole.
    const before = adapters[w.previous!.kind].tables.filter((table) => !w.adapter.tables.includes(table));
    for (const table of before) await db.run(`DELETE FROM ${table} WHERE file_id = ${id}`);
    await db.run(`DELETE FROM input_problems WHERE file_id = ${id}${lineFilter}`);
    await db.run(`DELETE FROM input_files WHERE file_id = ${id}`);
  }
}

/**
 * A file removed between discovery and its read (sid-code prunes old sessions as it runs): an
 * input error that names it, instead of the reader's own error. Anything else is returned as is.
 */
function removedWhileRead(error: unknown, inputs: DiscoveredInputs): unknown {
  const node = error as NodeJS.ErrnoException;
  const duck = error instanceof Error ? /No files found that match the pattern "(.*)"/.exec(error.message) : null;
  // DuckDB names the path as it was given to it: glob characters escaped (literal-path.ts).
  const file = node?.code === 'ENOENT' ? node.path : duck?.[1].replace(/\[([*?[])\]/g, '$1');
  const named = file === undefined ? undefined : inputs.files.find((f) => f.absPath === file);
  if (named === undefined) return error;
  return new InputError(`${named.relPath} was removed while trajaudit was reading it; run the command again (a file that is gone is no longer read)`);
}

function movedOrGone(dir: string): boolean {
  try {
    return fs.realpathSync.native(dir) !== dir;
  } catch {
    return true;
  }
}

interface DirRow {
  session_id: string;
  path: string;
  key: string | null;
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
  const skipped = (await db.all(`SELECT key, path, reason FROM skipped_inputs ORDER BY key`)).rows.filter((r) => own(r.key as string));
  const now = [...inputs.skipped].sort((a, b) => (a.absPath < b.absPath ? -1 : 1));
  return skipped.length !== now.length || skipped.some((r, i) => r.key !== now[i].absPath || r.path !== now[i].relPath || r.reason !== now[i].reason);
}

/**
 * A skipped entry this load replaces: under a directory it listed, skipped by it again, or a file
 * it reads.
 * Entries under directories it did not list stay (a load of one session keeps the rest).
 */
function ownSkipped(inputs: DiscoveredInputs): (key: string) => boolean {
  // A file named directly is its own scope: read now, its old entry (outside a window) goes.
  const again = new Set([...inputs.skipped.map((s) => s.absPath), ...inputs.files.map((f) => f.absPath)]);
  // An entry whose directory is gone is stale, whoever lists it (a linked session dir pruned or
  // moved); so is one whose directory (a real path when stored) now leads through a link: moved.
  return (key) => again.has(key) || inputs.scopes.some((dir) => key === dir || key.startsWith(dir + path.sep)) || movedOrGone(path.dirname(key));
}

/** The input_files row; after an append the counts cover the whole file, recounted from the tables. */
async function fileRow(db: Database, w: Work, fileId: number, ledger: LineLedger, lineBase: number, startOffset: number): Promise<unknown[]> {
  const [table] = w.adapter.tables;
  const lineFormat = w.file.kind !== 'task-output';
  let valid = ledger.valid;
  let malformed = ledger.malformed;
  const lines = lineBase + ledger.lines;
  if (lineBase > 0) {
    valid = (await db.all(`SELECT count(*) AS n FROM ${table} WHERE file_id = ${fileId}`)).rows[0].n as number;
    malformed = (await db.all(`SELECT count(*) AS n FROM input_problems WHERE file_id = ${fileId}`)).rows[0].n as number;
  }
  let range = ledger.timeRange ?? { min: null, max: null };
  if (!ledger.timeRange && w.adapter.appendable && w.adapter.timed) {
    const r = (await db.all(`SELECT min(ts)::VARCHAR AS min, max(ts)::VARCHAR AS max FROM ${table} WHERE file_id = ${fileId}`)).rows[0];
    range = { min: r.min as string | null, max: r.max as string | null };
  }
  // The mtime of what was read: a file that grew while it was read, and not since, is unchanged
  // next time. One that grew after the read keeps the earlier mtime; its growth is read next time.
  const bytes = startOffset + ledger.bytes;
  const after = fs.statSync(w.file.absPath, { throwIfNoEntry: false });
  const mtime = after?.size === bytes ? after.mtime : w.stat.mtime;
  const head = headHash(w.file.absPath, w.stat.size);
  // A small file read whole: the block before its end is the head block (one read, not two).
  const tail = ledger.completeBytes === w.stat.size && w.stat.size <= HASH_BLOCK ? head : tailHash(w.file.absPath, ledger.completeBytes);
  return [
    fileId, w.file.absPath, w.file.relPath, w.file.kind, w.file.sessionId, bytes,
    lineFormat ? lines : null, lineFormat ? valid : null, lineFormat ? lines - valid - malformed : null, lineFormat ? malformed : null,
    mtime.toISOString(), head, ledger.completeBytes, ledger.completeLines, tail, range.min, range.max, new Date().toISOString(),
  ];
}

/**
 * Whole files that cannot hold rows in a --since/--until window are not read: last written
 * before `since` (by an mtime no earlier than its last record), or first record after `until`
 * (with slack for hook times, see MTIME_SLACK_MS).
 */
function outsideWindow(file: SourceFile, stat: FileStat, window: TimeWindow): boolean {
  if (window.since && stat.mtime.getTime() < window.since.getTime() - MTIME_SLACK_MS) {
    // An mtime before the file's own last record is not the time of its last write (a copy that
    // reset mtimes, a file server whose clock is behind): such a file is read, and so is one whose
    // last record's time cannot be told from its end. A heartbeat is rewritten whole: its mtime is
    // its time.
    if (file.kind === 'heartbeat') return true;
    const last = lastEventTime(file.absPath, file.kind);
    if (last !== null && last.getTime() <= stat.mtime.getTime() + MTIME_SLACK_MS) return true;
  }
  if (!window.until || file.kind === 'heartbeat') return false;
  const first = firstEventTime(file.absPath, file.kind);
  return first !== null && first.getTime() > window.until.getTime() + MTIME_SLACK_MS;
}

const startOf = (w: Work) => (w.plan.action === 'append' ? w.plan.startOffset : 0);
const lineBaseOf = (w: Work) => (w.plan.action === 'append' ? w.plan.lineBase : 0);

const problemRows = (fileId: number, file: SourceFile, ledger: LineLedger) =>
  ledger.problems.map((p) => [fileId, file.relPath, p.line, p.byteOffset, p.kind, p.reason, p.excerpt]);

export async function ingest(db: Database, discovered: DiscoveredInputs, window: TimeWindow, progress: Progress): Promise<IngestSummary> {
  let inputs = discovered;
  const summary: IngestSummary = { files: inputs.files.length, loaded: 0, appended: 0, reloaded: 0, unchanged: 0, outsideWindow: 0, unread: [], bytesRead: 0, malformed: 0, gone: [] };
  await rekeyToRealPaths(db);
  const stored = await storedFiles(db);
  await adoptMoved(db, stored, inputs);
  await dropEndedHeartbeats(db, stored, inputs.root);
  await dropDuplicates(db, stored, inputs);
  // New files the window leaves unread. A --db lists them as skipped, so that the database says
  // it is incomplete (a later query warns) until a load without the window reads them.
  const outside = new Set<string>();
  for (const file of inputs.files) {
    if (stored.has(file.absPath) || !adapters[file.kind].timed) continue;
    const stat = fs.statSync(file.absPath, { throwIfNoEntry: false });
    if (stat && outsideWindow(file, stat, window)) {
      outside.add(file.absPath);
      summary.unread.push({ file, mtime: stat.mtime });
    }
  }
  if (db.path !== null && outside.size > 0) {
    const unread = inputs.files.filter((f) => outside.has(f.absPath)).map((f) => ({ absPath: f.absPath, relPath: f.relPath, reason: OUTSIDE_WINDOW }));
    inputs = { ...inputs, skipped: [...inputs.skipped, ...unread] };
  }
  const named = new Set(inputs.files.map((f) => f.absPath));
  for (const [key, file] of stored) if (!named.has(key) && !isFile(key)) summary.gone.push(file.path);
  const started = Date.now();
  let done = 0;
  let shownAt = 0;
  /** Progress line, at most ten times a second; `pending` = files/bytes read but not yet committed. */
  const tick = (pending = { files: 0, bytes: 0 }) => {
    if (Date.now() - shownAt < 100) return;
    shownAt = Date.now();
    const mib = (summary.bytesRead + pending.bytes) / 1048576;
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    progress.update(`loading ${done + pending.files}/${inputs.files.length} files, ${mib.toFixed(1)} MiB, ${(mib / seconds).toFixed(0)} MiB/s`);
  };
  const dirs = (await db.all(`SELECT session_id, path, key FROM session_dirs`)).rows as unknown as DirRow[];
  const renamed = renamedSessionDirs(dirs, inputs.sessionDirs);
  // The session dirs are written first, their files after: marked until the load completes.
  if (await discoveryChanged(db, inputs, stored, dirs, renamed)) await db.transaction(async () => {
    if (db.path !== null) await markLoadUnfinished(db);
    const ids = [...inputs.sessionDirs.map((d) => d.sessionId), ...renamed];
    for (let i = 0; i < ids.length; i += 500) {
      await db.runPositional(`DELETE FROM session_dirs WHERE session_id IN (${ids.slice(i, i + 500).map(() => '?').join(', ')})`, ids.slice(i, i + 500));
    }
    await insertRows(db, 'session_dirs', ['session_id', 'path', 'key'], inputs.sessionDirs.map((d) => [d.sessionId, d.relPath, d.absPath]));
    const gone = (await db.all(`SELECT key FROM skipped_inputs`)).rows.map((r) => r.key as string).filter(ownSkipped(inputs));
    for (let i = 0; i < gone.length; i += 500) {
      await db.runPositional(`DELETE FROM skipped_inputs WHERE key IN (${gone.slice(i, i + 500).map(() => '?').join(', ')})`, gone.slice(i, i + 500));
    }
    await insertRows(db, 'skipped_inputs', ['key', 'path', 'reason'], inputs.skipped.map((s) => [s.absPath, s.relPath, s.reason]));
    const moved = inputs.files.filter((f) => stored.has(f.absPath) && stored.get(f.absPath)!.path !== f.relPath);
    for (const f of moved) {
      const id = stored.get(f.absPath)!.file_id;
      for (const table of FILE_ID_PATH_TABLES) await db.run(`UPDATE ${table} SET path = $path WHERE file_id = ${id}`, { path: f.relPath });
    }
  });

  const small: Work[] = [];
  const jsonl: Work[] = [];
  const record = (w: Work, ledger: LineLedger) => {
    summary.bytesRead += ledger.bytes;
    summary.malformed += ledger.malformed;
    summary[w.plan.action === 'append' ? 'appended' : w.plan.action === 'reload' ? 'reloaded' : 'loaded'] += 1;
    done += 1;
  };
  // Ids for new files, taken in one statement outside any transaction (a lone nextval() is a
  // commit, an fsync, of its own; and a rolled-back one could be handed out twice).
  const idsFor = async (conn: Database, work: Work[]): Promise<Map<Work, number>> => {
    const fresh = work.filter((w) => !w.previous);
    const ids = fresh.length ? (await conn.all(`SELECT nextval('file_ids') AS id FROM range(${fresh.length})`)).rows.map((r) => r.id as number) : [];
    return new Map(work.map((w) => [w, w.previous?.file_id ?? ids.shift()!]));
  };

  /**
   * Small files parsed in Node, one transaction per batch of up to SMALL_BATCH files. Their
   * rows reach DuckDB every FLUSH_EVERY files, so that each file's objects die young: holding a
   * whole batch let V8's heap fill with ~200 MB of garbage on a 5 GiB home (measured).
   */
  const loadSmall = async (conn: Database, files: Work[]) => {
    const ids = await idsFor(conn, files);
    const alone = new Set<Work>();
    for (;;) {
      const members = files.filter((w) => !alone.has(w));
      const ledgers: LineLedger[] = [];
      let current: Work | undefined;
      try {
        await conn.transaction(async () => {
          await clearRows(conn, members, () => 0);
          const batch = new RowBatch();
          for (const [k, w] of members.entries()) {
            current = w;
            const fileId = ids.get(w)!;
            const { ledger, store } = await w.adapter.read({ db: conn, fileId, file: w.file, startOffset: 0, lineBase: 0, batch, inTransaction: true });
            await store();
            batch.add('input_files', FILE_COLUMNS, [await fileRow(conn, w, fileId, ledger, 0, 0)]);
            batch.add('input_problems', PROBLEM_COLUMNS, problemRows(fileId, w.file, ledger));
            ledgers.push(ledger);
            if ((k + 1) % FLUSH_EVERY === 0) await batch.flush(conn);
          }
          await batch.flush(conn);
        });
        members.forEach((w, k) => record(w, ledgers[k]));
        break;
      } catch (error) {
        if (error instanceof OutOfMemoryError && current) throw error.whileReading(current.file.relPath);
        const failed = current && readFailedError(error, current.file.relPath);
        if (failed) throw failed;
        // A ledger with a CRLF line or invalid UTF-8: the staged reader takes it only on its own.
        if (!(error instanceof ReaderRefused) || !current) throw error;
        alone.add(current);
      }
    }
    for (const w of alone) await loadAlone(conn, w, ids.get(w)!);
    tick();
  };

  for (const file of inputs.files) {
    const adapter = adapters[file.kind];
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file.absPath);
    } catch (error) {
      throw removedWhileRead(error, inputs);
    }
    const previous = stored.get(file.absPath);
    if (outside.has(file.absPath)) {
      summary.outsideWindow += 1;
      done += 1;
      continue;
    }
    // Rows carry their file's session and sit in its kind's tables: a file whose owner changed
    // (it is reached under another session dir now) is read again as that session's.
    const owned = !previous || (previous.session_id === file.sessionId && previous.kind === file.kind);
    const plan: FilePlan = owned ? planFile(file.absPath, stat, previous, adapter.appendable) : { action: 'reload' };
    if (plan.action === 'unchanged') {
      summary.unchanged += 1;
      done += 1;
      continue;
    }
    const w: Work = { file, adapter, stat: { size: stat.size, mtime: stat.mtime }, previous, plan };
    (adapter.appendable ? jsonl : small).push(w);
  }

  /** Reads one JSONL file (or its new tail) on `conn`; `write` stores its rows (its ledger entry is separate). */
  const readJsonl = async (conn: Database, w: Work, fileId: number, inTransaction: boolean) => {
    const { ledger, store } = await w.adapter.read({ db: conn, fileId, file: w.file, startOffset: startOf(w), lineBase: lineBaseOf(w), batch: new RowBatch(), inTransaction });
    const write = async () => {
      await clearRows(conn, [w], lineBaseOf);
      await store();
    };
    return { ledger, write };
  };
  /**
   * The input_files and input_problems rows of the files a transaction wrote, at its end: one
   * query per table for the files' time ranges, instead of one per file over the transaction's
   * growing uncommitted rows.
   */
  const writeLedgers = async (conn: Database, read: { w: Work; fileId: number; ledger: LineLedger }[]) => {
    const byTable = new Map<string, Map<number, LineLedger>>();
    for (const { w, fileId, ledger } of read) {
      if (ledger.timeRange || !w.adapter.timed || !w.adapter.appendable) continue;
      const table = w.adapter.tables[0];
      byTable.set(table, (byTable.get(table) ?? new Map()).set(fileId, ledger));
      ledger.timeRange = { min: null, max: null };
    }
    // As text: a timestamp past year 9999 does not survive a trip through a JavaScript Date.
    for (const [table, ledgers] of byTable) {
      const ranges = await conn.all(`SELECT file_id, min(ts)::VARCHAR AS min, max(ts)::VARCHAR AS max FROM ${table} WHERE file_id IN (${[...ledgers.keys()].join(', ')}) GROUP BY file_id`);
      for (const r of ranges.rows) ledgers.get(r.file_id as number)!.timeRange = { min: r.min as string | null, max: r.max as string | null };
    }
    await insertRows(conn, 'input_problems', PROBLEM_COLUMNS, read.flatMap(({ w, fileId, ledger }) => problemRows(fileId, w.file, ledger)));
    const files: unknown[][] = [];
    for (const { w, fileId, ledger } of read) files.push(await fileRow(conn, w, fileId, ledger, lineBaseOf(w), startOf(w)));
    await insertRows(conn, 'input_files', FILE_COLUMNS, files);
  };
  /**
   * A file the staged reader can only take outside a transaction (StageRange.inTransaction): read
   * on its own, then written with its ledger entry in a transaction of its own.
   */
  const loadAlone = async (conn: Database, w: Work, fileId: number) => {
    try {
      const { ledger, write } = await readJsonl(conn, w, fileId, false);
      await conn.transaction(async () => {
        await write();
        await writeLedgers(conn, [{ w, fileId, ledger }]);
      });
      record(w, ledger);
    } catch (error) {
      throw error instanceof OutOfMemoryError ? error.whileReading(w.file.relPath) : error;
    }
  };
  /** Inside a group's transaction: a whole file straight into its table when the adapter can, else staged. */
  const direct = (w: Work, refused: Set<Work>) => DIRECT_READER && w.adapter.loadDirect !== undefined && w.plan.action !== 'append' && !refused.has(w);
  /** Starts a file's line scan early: Node scans while DuckDB inserts the file before it. */
  const scanEarly = (w: Work | undefined, refused: Set<Work>): Promise<LineScan> | undefined => {
    if (!w || !direct(w, refused)) return undefined;
    const scan = scanLines(w.file.absPath);
    scan.catch(() => undefined); // a failed scan is reported when the file's turn comes
    return scan;
  };
  const loadInGroup = async (conn: Database, w: Work, fileId: number, refused: Set<Work>, scan?: Promise<LineScan>): Promise<LineLedger> => {
    if (direct(w, refused)) {
      await clearRows(conn, [w], () => 0);
      try {
        const [ledger] = await w.adapter.loadDirect!(conn, [{ fileId, file: w.file, scan }]);
        if (ledger) return ledger;
        refused.add(w); // by its line scan, before anything was read
      } catch (error) {
        if (!(error instanceof DirectReadRefused)) throw error;
        refused.add(w);
        if (process.env.TRAJAUDIT_DEBUG) process.stderr.write(`direct read refused: ${error.message}\n`);
        throw error;
      }
    }
    const { ledger, write } = await readJsonl(conn, w, fileId, true);
    await write();
    return ledger;
  };
  /**
   * The group's small whole files, one statement per kind (a kind with one such file reads it the
   * usual way): their ledgers. Those their line scan refused are `refused`. A failed statement
   * costs the transaction; the group is read again with those files one by one (`unbatched`).
   */
  const loadBatches = async (conn: Database, members: Work[], ids: Map<Work, number>, refused: Set<Work>, unbatched: Set<Work>): Promise<Map<Work, LineLedger>> => {
    const byAdapter = new Map<Adapter, Work[]>();
    for (const w of members) {
      if (!direct(w, refused) || unbatched.has(w) || w.stat.size > BATCH_FILE_BYTES) continue;
      byAdapter.set(w.adapter, [...(byAdapter.get(w.adapter) ?? []), w]);
    }
    const read = new Map<Work, LineLedger>();
    for (const [adapter, files] of byAdapter) {
      if (files.length < 2) continue;
      await clearRows(conn, files, () => 0);
      try {
        const ledgers = await adapter.loadDirect!(conn, files.map((w) => ({ fileId: ids.get(w)!, file: w.file })));
        files.forEach((w, k) => (ledgers[k] ? read.set(w, ledgers[k]) : refused.add(w)));
      } catch (error) {
        if (!(error instanceof DirectReadRefused)) throw error;
        for (const w of files) unbatched.add(w);
        if (process.env.TRAJAUDIT_DEBUG) process.stderr.write(`batched read refused: ${error.message}\n`);
        throw error;
      }
    }
    return read;
  };
  // Files the direct path refused once it had read them, and files whose batch failed: known for
  // the rest of the load, so that a group holding them again does not pay for them again.
  const refused = new Set<Work>();
  const unbatched = new Set<Work>();
  /**
   * One commit group on one connection, in one transaction: its small whole files in batches
   * (loadBatches), then the others one by one. A file the direct path refuses once it has read it
   * costs the transaction: the group up to it is read again with that file staged (one its line
   * scan refuses is staged at once), and the files after it go back to the queue. A file the
   * staged reader can only take outside a transaction is left out of the group and read on its own.
   */
  const loadGroup = async (conn: Database, taken: Work[], ids: Map<Work, number>) => {
    let group = taken;
    const alone = new Set<Work>();
    for (;;) {
      const members = group.filter((w) => !alone.has(w));
      let pending = { files: 0, bytes: 0 };
      let current: Work | undefined;
      try {
        const loaded = await conn.transaction(async () => {
          const read: { w: Work; fileId: number; ledger: LineLedger }[] = [];
          const readOne = (w: Work, ledger: LineLedger) => {
            read.push({ w, fileId: ids.get(w)!, ledger });
            pending = { files: pending.files + 1, bytes: pending.bytes + ledger.bytes };
            tick(inFlight({ files: 1, bytes: ledger.bytes }));
          };
          const batched = await loadBatches(conn, members, ids, refused, unbatched);
          for (const [w, ledger] of batched) readOne(w, ledger);
          const rest = members.filter((w) => !batched.has(w));
          let scan = scanEarly(rest[0], refused);
          for (const [k, w] of rest.entries()) {
            current = w;
            const scanning = scan;
            scan = scanEarly(rest[k + 1], refused);
            readOne(w, await loadInGroup(conn, w, ids.get(w)!, refused, scanning));
          }
          await writeLedgers(conn, read);
          return read;
        });
        for (const { w, ledger } of loaded) record(w, ledger);
        break;
      } catch (error) {
        if (error instanceof ReaderRefused && current) alone.add(current);
        else if (error instanceof OutOfMemoryError && current) throw error.whileReading(current.file.relPath);
        else if (current && readFailedError(error, current.file.relPath)) throw readFailedError(error, current.file.relPath)!;
        else if (!(error instanceof DirectReadRefused)) throw error;
        else if (current) {
          // The files after the refused one wait for a group of their own: a run of files read_json
          // refuses (every file of a tree of pretty-printed JSON) costs each of them one read
          // again, where reading the whole group again for each was quadratic.
          const k = group.indexOf(current);
          queue.unshift(...group.slice(k + 1));
          group = group.slice(0, k + 1);
        }
      } finally {
        inFlight({ files: -pending.files, bytes: -pending.bytes });
      }
    }
    for (const w of alone) await loadAlone(conn, w, ids.get(w)!);
    tick();
  };
  // Files not yet committed by any connection, for the progress line.
  const uncommitted = { files: 0, bytes: 0 };
  const inFlight = (delta: { files: number; bytes: number }) => {
    uncommitted.files += delta.files;
    uncommitted.bytes += delta.bytes;
    return uncommitted;
  };

  // JSONL files commit in groups of about GROUP_BYTES: a commit costs 60 ms and more on a file
  // database (measured), so one per file would dominate a home of many small sessions. A load killed
  // mid-group loses that group only; nothing is ever half-written, and the next run redoes it.
  // PARALLEL connections read files side by side: one file's pipeline keeps ~1.2 cores busy.
  const queue = [...jsonl];
  const takeGroup = (): Work[] => {
    const group: Work[] = [];
    for (let bytes = 0, staged = 0; queue.length > 0 && (group.length === 0 || (bytes < GROUP_BYTES && staged < STAGED_PER_GROUP && group.length < FILES_PER_GROUP)); ) {
      const w = queue.shift()!;
      group.push(w);
      bytes += w.stat.size;
      if (w.plan.action === 'append') staged += 1;
    }
    return group;
  };
  // Small files on the first connection, in batches; V8's garbage from them is collected as it
  // builds up, since little else allocates in V8 during a load (see collect-garbage.ts).
  let failed = false; // a connection failed: the others stop at their next batch or group
  let collectedAt = 0;
  const loadSmallFiles = async () => {
    for (let batch: Work[] = [], bytes = 0, k = 0; k < small.length && !failed; k += 1) {
      batch.push(small[k]);
      bytes += small[k].stat.size;
      if (k === small.length - 1 || batch.length >= SMALL_BATCH || bytes >= SMALL_BATCH_BYTES) {
        await loadSmall(db, batch);
        batch = [];
        bytes = 0;
        if (process.memoryUsage().heapUsed - collectedAt > (k === small.length - 1 ? GC_LAST_GROWTH_BYTES : GC_GROWTH_BYTES)) {
          collectGarbage();
          collectedAt = process.memoryUsage().heapUsed;
        }
      }
    }
  };
  // All at once: taken per commit group, each waited on the other connection's commit
  // (19 statements, ~0.6 s of connection time on a 1 GiB home).
  const jsonlIds = await idsFor(db, jsonl);
  if (db.path !== null && small.length + jsonl.length > 0) await markLoadUnfinished(db);
  const connections = [db];
  for (let k = 1; k < Math.min(PARALLEL, jsonl.length); k += 1) connections.push(await db.connect());
  // One DuckDB thread per connection while files load: the direct reader numbers read_json's rows
  // in the order one thread reads them, and side by side it measured 17.5–19.9 s against
  // 24.4–29.3 s for DuckDB's default threads on a 1 GiB home (2 cores); queries get them back after.
  if (jsonl.length > 0) await db.run(`SET threads = 1`);
  // FSST and ZSTD are left out of the compression DuckDB tries on each column segment while files
  // load: on the 1 GiB home it tried them on every string column and chose FSST for two small
  // ones only (events.agent_id, type), and the database came out no bigger without them; load
  // took 5.31–5.42 s against 5.44–5.61 s (events.jsonl files, three runs each, interleaved).
  // Queries, which write nothing, get DuckDB's default back after.
  await db.run(`SET disabled_compression_methods = 'fsst,zstd'`);
  // While JSONL files load into a file, the RSS guard has DuckDB hand freed memory back only as
  // the process nears its ceiling (rss-guard.ts). Queries get DuckDB's default back after.
  let guard: RssGuard | null = null;
  try {
    if (jsonl.length > 0 && db.path !== null) guard = await startRssGuard(db, rssCeiling());
    // Every connection finishes (or fails) before any is closed: closing one mid-query hangs.
    const outcomes = await Promise.allSettled(connections.map(async (conn) => {
      try {
        // The first connection reads the small files while the others start on the JSONL ones:
        // alone, the small files left one of two cores idle (1 GiB home: ~1.9 s).
        if (conn === db) await loadSmallFiles();
        for (let group = takeGroup(); group.length > 0; group = takeGroup()) await loadGroup(conn, group, jsonlIds);
      } catch (error) {
        failed = true;
        queue.length = 0;
        throw error;
      }
    }));
    const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (rejected) throw removedWhileRead(rejected.reason, inputs);
  } finally {
    await guard?.stop();
    for (const conn of connections.slice(1)) conn.close();
    if (jsonl.length > 0) await db.run(`RESET threads`);
    await db.run(`RESET disabled_compression_methods`);
    if (guard !== null) await db.run(`RESET allocator_bulk_deallocation_flush_threshold`);
  }
  if (db.path !== null) await clearLoadUnfinished(db);
  // Fold the write-ahead log into the file now, so the next open (an unchanged re-run, a query)
  // does not pay for this load's checkpoint.
  if (db.path !== null && summary.loaded + summary.appended + summary.reloaded > 0) {
    try {
      await db.run('CHECKPOINT');
    } catch (error) {
      // The load is committed (in the database's log); the next open folds the log in.
      throw noSpaceError(error, `: this load is committed, in ${db.path}.wal; DuckDB folds it into ${db.path} when it next opens the file with room to write`) ?? error;
    }
  }
  progress.done();
  return summary;
}
