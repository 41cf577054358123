// The core's tables (the input ledger, what discovery skipped, session dirs) and the JSON macros;
// each agent format adds its own part (src/formats/<name>/schema.ts). Column names are a
// documented contract (docs/tables.md).
import { createHash } from 'node:crypto';
import type { Database } from './database.js';
import { JSON_DOUBLE_MACRO } from './json-double.js';
import { JSON_INTEGER_MACRO } from './json-integer.js';
import { tableColumns } from './older-schema.js';
import { markLoadUnfinished } from './unfinished-load.js';

const TABLES = `
CREATE SEQUENCE IF NOT EXISTS file_ids START 1;
CREATE TABLE IF NOT EXISTS input_files (
  file_id BIGINT PRIMARY KEY, key VARCHAR UNIQUE, path VARCHAR, kind VARCHAR, session_id VARCHAR,
  bytes BIGINT, lines BIGINT, valid BIGINT, blank BIGINT, malformed BIGINT,
  mtime TIMESTAMPTZ, head_hash VARCHAR, complete_bytes BIGINT, complete_lines BIGINT, tail_hash VARCHAR,
  min_ts TIMESTAMPTZ, max_ts TIMESTAMPTZ, loaded_at TIMESTAMPTZ, stat_stamp VARCHAR);
ALTER TABLE input_files ADD COLUMN IF NOT EXISTS stat_stamp VARCHAR;
CREATE TABLE IF NOT EXISTS input_problems (
  file_id BIGINT, path VARCHAR, line BIGINT, byte_offset BIGINT, kind VARCHAR, reason VARCHAR, excerpt VARCHAR);
CREATE TABLE IF NOT EXISTS skipped_inputs (key VARCHAR PRIMARY KEY, path VARCHAR, reason VARCHAR);
CREATE TABLE IF NOT EXISTS session_dirs (session_id VARCHAR PRIMARY KEY, path VARCHAR, key VARCHAR);
ALTER TABLE session_dirs ADD COLUMN IF NOT EXISTS key VARCHAR;
`;

const VIEWS = `
${JSON_INTEGER_MACRO}
${JSON_DOUBLE_MACRO}

`;


/** A part of the schema: its tables (CREATE … IF NOT EXISTS, ALTER … ADD COLUMN IF NOT EXISTS) and its views and macros (CREATE OR REPLACE). */
export interface SchemaPart {
  tables: string;
  views: string;
  derivedTables?: DerivedTable[];
}

/**
 * A table a load fills from another's rows (typed fields of a JSON payload). An older file that has
 * `from` but not the table gets it filled in the same transaction as the schema; over an older file
 * opened read-only, it is a view that computes it (older-schema.ts).
 */
export interface DerivedTable {
  table: string;
  /** Its columns: a stored table that lacks one (an older version's) is made again from `from`. */
  columns: string[];
  from: string;
  /** The table's rows, computed from `source` (`from`'s rows). */
  rows: (source: string) => string;
  /**
   * Made from all of a session's rows at once (a row pairs rows of anywhere in the session), so
   * not per file read: at the end of each load that wrote rows (remakeWholeTables), the rows of
   * the sessions it wrote are made again. It has a session_id column, and its rows of a session
   * come from the rows of that session alone, of `from` and of the whole tables before it.
   */
  whole?: boolean;
}

/** The core's part; each agent format adds its own (src/formats/). */
export const BASE_SCHEMA: SchemaPart = { tables: TABLES, views: VIEWS };

/** The schema a database gets: the parts in order, with what is derived from their SQL. */
export class Schema {
  readonly tables: string;
  readonly views: string;
  /** Names this exact schema; stored in trajaudit_meta, compared on every open. */
  readonly version: string;
  /**
   * The views and macros as TEMP ones: made on one connection, they shadow the file's own for that
   * connection only (DuckDB resolves a name in temp before main), so a read-only query over a
   * database from another version reads it as this version would, without writing to it.
   */
  readonly tempViews: string;
  /** "table.column" for each column `load` adds to an older database's table; its old rows hold NULL. */
  readonly addedColumns: Set<string>;
  /** The names the schema creates (tables, views, sequences and macros). */
  readonly names: string[];
  readonly derivedTables: DerivedTable[];
  /** The tables (not derived) whose rows the whole derived tables are made from, through any derived table between. */
  readonly wholeSources: Set<string>;

  constructor(parts: SchemaPart[]) {
    this.tables = parts.map((p) => p.tables).join('\n');
    this.views = parts.map((p) => p.views).join('\n');
    this.version = createHash('sha1').update(this.tables).update(this.views).digest('hex');
    this.tempViews = this.views.replaceAll('CREATE OR REPLACE VIEW ', 'CREATE OR REPLACE TEMP VIEW ').replaceAll('CREATE OR REPLACE MACRO ', 'CREATE OR REPLACE TEMP MACRO ');
    this.addedColumns = new Set([...this.tables.matchAll(/ALTER TABLE (\w+) ADD COLUMN IF NOT EXISTS (\w+)/g)].map((m) => `${m[1]}.${m[2]}`));
    this.derivedTables = parts.flatMap((p) => p.derivedTables ?? []);
    const baseOf = (table: string): string => {
      const derived = this.derivedTables.find((d) => d.table === table);
      return derived ? baseOf(derived.from) : table;
    };
    this.wholeSources = new Set(this.derivedTables.filter((d) => d.whole).map((d) => baseOf(d.from)));
    this.names = [...`${this.tables}${this.views}`.matchAll(/CREATE (?:OR REPLACE )?(?:TABLE|VIEW|SEQUENCE|MACRO) (?:IF NOT EXISTS )?(\w+)/g)].map((m) => m[1]);
  }
}

/**
 * Creates the tables and views, unless the database already has this exact schema: a command
 * that only reads (sql, query, report with --db) then writes nothing, and closing it costs no
 * checkpoint.
 */
export async function createSchema(db: Database, schema: Schema): Promise<void> {
  const current = await db.all(
    `SELECT (SELECT count(*) FROM duckdb_tables() WHERE table_name = 'trajaudit_meta' AND NOT temporary) AS has_meta`,
  );
  if (current.rows[0].has_meta === 1) {
    const version = await db.all(`SELECT value FROM trajaudit_meta WHERE key = 'schema_version'`);
    if (version.rows[0]?.value === schema.version) return;
  }
  const stored = current.rows[0].has_meta === 1 ? await tableColumns(db) : [];
  const before = new Set(stored.map((c) => c.table));
  // A derived table to fill from its source (stored, or filled here before it): none yet, one of
  // an older shape, or one whose source is filled again.
  const refill: DerivedTable[] = [];
  for (const d of schema.derivedTables) {
    const sourceRefilled = refill.some((r) => r.table === d.from);
    const current = d.columns.every((column) => stored.some((c) => c.table === d.table && c.column === column));
    if ((before.has(d.from) && !current) || sourceRefilled) refill.push(d);
  }
  await db.transaction(async () => {
    for (const derived of refill) await db.run(`DROP TABLE IF EXISTS ${derived.table}`);
    await db.run(schema.tables);
    for (const derived of refill) await db.run(`INSERT INTO ${derived.table} ${derived.rows(derived.from)}`);
    await db.run(schema.views);
    await db.run(`CREATE TABLE IF NOT EXISTS trajaudit_meta (key VARCHAR PRIMARY KEY, value VARCHAR)`);
    await db.run(`INSERT OR REPLACE INTO trajaudit_meta VALUES ('schema_version', $v)`, { v: schema.version });
    // A database file is written only by a load (unfinished-load.ts), which clears the mark when
    // it completes: marked with its schema, a file whose load was killed before it wrote its
    // first files says so, instead of answering from no data without a word.
    if (db.path !== null) await markLoadUnfinished(db);
  });
}

/**
 * Makes each whole derived table again from its source's rows: all of them, or with `sessions`,
 * only the rows of those sessions (a load that appended to a few files does not pair every run again).
 */
export async function remakeWholeTables(db: Database, schema: Schema, sessions?: string[]): Promise<void> {
  if (sessions?.length === 0) return;
  // A list of literals, which the scans check against each row group's range of session ids.
  const only = sessions === undefined ? 'true' : `session_id IN (${sessions.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')})`;
  for (const derived of schema.derivedTables.filter((d) => d.whole)) {
    await db.run(`DELETE FROM ${derived.table} WHERE ${only}`);
    const source = sessions === undefined ? derived.from : `(SELECT * FROM ${derived.from} WHERE ${only})`;
    // Filtered again: a row may also come from the whole tables before it, which hold every session.
    await db.run(`INSERT INTO ${derived.table} SELECT * FROM (${derived.rows(source)}) WHERE ${only}`);
  }
}

/**
 * A name in the file that trajaudit's schema would take, when the file is not trajaudit's: no
 * trajaudit_meta, and no input_files of its own shape (databases from before trajaudit_meta). Null
 * when the schema can be created or is there.
 */
export async function clashingName(db: Database, schema: Schema): Promise<string | null> {
  // trajaudit's own file, the common case, is told by one table, before the slow catalog listing.
  const own = await db.all(`SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'trajaudit_meta'`);
  if ((own.rows[0].n as number) > 0) return null;
  const objects = await db.all(
    `SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'
     UNION ALL SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
     UNION ALL SELECT sequence_name FROM duckdb_sequences() WHERE database_name = current_database() AND schema_name = 'main'
     UNION ALL SELECT function_name FROM duckdb_functions() WHERE database_name = current_database() AND schema_name = 'main' AND function_type = 'macro'`,
  );
  const names = new Set(objects.rows.map((r) => r.name as string));
  if (names.has('trajaudit_meta')) return null;
  const ledger = await db.all(`SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'input_files'`);
  const columns = new Set(ledger.rows.map((r) => r.column_name as string));
  if (['file_id', 'path', 'kind', 'bytes', 'lines', 'valid', 'malformed'].every((c) => columns.has(c))) return null;
  return schema.names.find((name) => names.has(name)) ?? null;
}
