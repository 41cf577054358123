// DuckDB's settings while files load, and the connections that read them side by side: set
// before the first file, given back to DuckDB's defaults after the last (queries get those).
import os from 'node:os';
import { hasSmallRowGroups } from '../db/attach-for-writing.js';
import { type Database, DEFAULT_FILE_MEMORY_LIMIT } from '../db/database.js';
import { environment, sizeInBytes } from '../environment.js';
import { type RssGuard, startRssGuard } from './rss-guard.js';

/**
 * The buffer pool two connections reading wide rows (Adapter.wideRows) need: a Claude Code
 * transcript's insert took up to ~150 MB of it alone (the 192 MB default ran out with two).
 */
const WIDE_PAIR_POOL_BYTES = 384e6;

/**
 * Connections reading JSONL files side by side: one file's pipeline keeps a little over one core
 * busy. One when a file's rows are wide and the pool (null: DuckDB's own, most of the machine's
 * memory) is smaller than two such statements need.
 */
function parallel(wide: boolean, pool: number | null): number {
  if (wide && pool !== null && pool < WIDE_PAIR_POOL_BYTES) return environment().parallel ?? 1;
  return environment().parallel ?? Math.max(1, Math.min(2, os.availableParallelism()));
}

/** DuckDB's buffer pool for this database: TRAJAUDIT_MEMORY_LIMIT, else 192 MB for a file and DuckDB's own in memory. */
function poolBytes(db: Database): number | null {
  const limit = environment().memoryLimit ?? (db.path === null ? undefined : DEFAULT_FILE_MEMORY_LIMIT);
  return limit === undefined ? null : sizeInBytes(limit);
}

/**
 * The RSS a load into a file holds to: DuckDB's buffer pool and what the rest of the process
 * takes beside it (Node, DuckDB's code, the metadata of the tables).
 */
function rssCeiling(): { high: number; low: number } {
  const high = sizeInBytes(environment().memoryLimit ?? DEFAULT_FILE_MEMORY_LIMIT) + 228e6;
  return { high, low: high - 40e6 };
}

/**
 * Runs `load` with the load's settings and its connections (`db` first); every connection
 * finishes or fails before any is closed (closing one mid-query hangs).
 */
export async function withLoadSettings<T>(db: Database, jsonlFiles: number, wideRows: boolean, load: (connections: Database[]) => Promise<T>): Promise<T> {
  const connections = [db];
  for (let k = 1; k < Math.min(parallel(wideRows, poolBytes(db)), jsonlFiles); k += 1) connections.push(await db.connect());
  // One DuckDB thread per connection while JSONL files load: the direct reader numbers
  // read_json's rows in the order one thread reads them, and side by side it is also faster.
  if (jsonlFiles > 0) await db.run(`SET threads = 1`);
  // FSST and ZSTD are left out of the compression DuckDB tries on each column segment while files
  // load: tried on every string column, they were chosen for two small ones only, for no smaller file.
  await db.run(`SET disabled_compression_methods = 'fsst,zstd'`);
  // In a --db of small row groups (attach-for-writing.ts) a commit writes its rows to the file, so
  // the log stays small and never reaches DuckDB's 16 MiB for a checkpoint; until one, the
  // committed row groups hold the buffer pool (a 1 GiB Claude Code home ran out of it).
  const checkpointEachCommit = jsonlFiles > 0 && db.path !== null && (await hasSmallRowGroups(db));
  if (checkpointEachCommit) await db.run(`SET checkpoint_threshold = '1MB'`);
  // While JSONL files load into a file, the RSS guard has DuckDB hand freed memory back only as
  // the process nears its ceiling (rss-guard.ts).
  let guard: RssGuard | null = null;
  try {
    if (jsonlFiles > 0 && db.path !== null) guard = await startRssGuard(db, rssCeiling());
    return await load(connections);
  } finally {
    await guard?.stop();
    for (const conn of connections.slice(1)) conn.close();
    if (jsonlFiles > 0) await db.run(`RESET threads`);
    if (checkpointEachCommit) await db.run(`RESET checkpoint_threshold`);
    await db.run(`RESET disabled_compression_methods`);
    if (guard !== null) await db.run(`RESET allocator_bulk_deallocation_flush_threshold`);
  }
}
