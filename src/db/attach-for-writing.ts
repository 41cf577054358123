// A --db a command writes is attached to an in-memory instance, for the one storage option DuckDB
// takes only at ATTACH: the rows per row group. Each writer must give the same: a checkpoint
// under another size merges or leaves row groups of the file's tables to that size.
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import pathModule from 'node:path';
import type { Database } from './database.js';
import { duckdb } from './duckdb-api.js';

/** DuckDB's own row group size. */
const DEFAULT_ROW_GROUP_ROWS = 122880;
/**
 * Rows per row group once a database holds wide rows (Claude Code's, ~2 KB each). A commit's rows
 * go to the table's last row group, and the checkpoint after it writes that row group whole again:
 * at 122,880 such rows (~250 MB, beyond the buffer pool) those rewrites took most of a load.
 * Narrow rows (sid-code's events) load and query faster in DuckDB's own size.
 */
const WIDE_ROW_GROUP_ROWS = 16384;
/** trajaudit_meta's key for a database that holds wide rows: its writers use the smaller size. */
export const ROW_GROUP_KEY = 'row_group_rows';

export interface AttachedForWriting {
  instance: DuckDBInstance;
  /** The file's catalog, as DuckDB names a file it opens directly (its base name). */
  catalog: string;
  /** The size to record in trajaudit_meta (under ROW_GROUP_KEY), when the file does not yet say it. */
  toRecord: number | null;
}

const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The row group size the file's trajaudit_meta records, read without writing anything. */
async function recordedRowGroupRows(connection: DuckDBConnection, literal: string): Promise<number | null> {
  await connection.run(`ATTACH ${literal} AS trajaudit_peek (READ_ONLY)`);
  try {
    const meta = await connection.runAndReadAll(
      `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'trajaudit_peek' AND schema_name = 'main' AND table_name = 'trajaudit_meta'`,
    );
    if (Number(meta.getRows()[0][0]) === 0) return null;
    const value = (await connection.runAndReadAll(`SELECT max(value) FROM trajaudit_peek.main.trajaudit_meta WHERE key = ${sqlString(ROW_GROUP_KEY)}`)).getRows()[0][0];
    return value === null ? null : Number(value);
  } finally {
    await connection.run('DETACH trajaudit_peek');
  }
}

/**
 * `file` attached for writing, with small row groups when it holds wide rows or `wideRows` brings
 * them (then for good: a later load of narrow rows keeps the size, so nothing is rewritten).
 */
export async function attachForWriting(file: string, wideRows: boolean, options: Record<string, string>): Promise<AttachedForWriting> {
  const instance = await duckdb.DuckDBInstance.create(':memory:', options);
  const connection = await instance.connect();
  try {
    const literal = sqlString(file);
    const recorded = await recordedRowGroupRows(connection, literal);
    const rows = recorded === WIDE_ROW_GROUP_ROWS || wideRows ? WIDE_ROW_GROUP_ROWS : DEFAULT_ROW_GROUP_ROWS;
    // DuckDB names the catalog after the file (as it does a file it opens), except where the
    // in-memory catalog has that name (`memory.db`): that one is named as DuckDB names `temp.db`.
    const alias = pathModule.basename(file).split('.')[0] === 'memory' ? ' AS memory_db' : '';
    await connection.run(`ATTACH ${literal}${alias}${rows === DEFAULT_ROW_GROUP_ROWS ? '' : ` (ROW_GROUP_SIZE ${rows})`}`);
    // The one database with a file: the in-memory one has none, `system` and `temp` are internal.
    const named = (await connection.runAndReadAll(`SELECT database_name FROM duckdb_databases() WHERE path IS NOT NULL AND NOT internal`)).getRows();
    connection.closeSync();
    return { instance, catalog: String(named[0][0]), toRecord: rows !== DEFAULT_ROW_GROUP_ROWS && recorded !== rows ? rows : null };
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
}

/** Whether the open --db keeps small row groups (it holds wide rows). */
export async function hasSmallRowGroups(db: Database): Promise<boolean> {
  const recorded = await db.all(`SELECT max(value) AS rows FROM trajaudit_meta WHERE key = $key`, { key: ROW_GROUP_KEY });
  return Number(recorded.rows[0].rows) === WIDE_ROW_GROUP_ROWS;
}
