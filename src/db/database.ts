// The only module family that imports @duckdb/node-api. Everything leaving here is a
// Cell (cell-from-value.ts): plain JS, ISO-8601 UTC strings for times, parsed JSON, exact numbers.
import type { DuckDBConnection, DuckDBExtractedStatements, DuckDBInstance, DuckDBMaterializedResult, DuckDBPreparedStatement } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import pathModule from 'node:path';
import { environment } from '../environment.js';
import { InputError, noSpaceError, OutOfMemoryError } from '../errors.js';
import { makeTempDir, removeTempDir } from '../temp-dirs.js';
import type { Cell, Row, Tabular } from '../render/types.js';
import { cellFromValue } from './cell-from-value.js';
import { duckdb } from './duckdb-api.js';
import { structWithRepeatedNames } from './repeated-field-names.js';
import { uniqueColumnNames } from './unique-column-names.js';
import { olderSchemaStatements, tableColumns, unknownColumns } from './older-schema.js';
import { clashingName, createSchema, type Schema } from './schema.js';
import { makeDatabaseFile } from './make-database-file.js';
import { type AttachedForWriting, attachForWriting, ROW_GROUP_KEY } from './attach-for-writing.js';
import { isUnmadeDatabase } from './unmade-database.js';

export type Params = Record<string, string | number | boolean | null>;

/**
 * One SQL text as DuckDB's parser splits it, each statement looked at or run on its own. The
 * parser may make several of one statement the user wrote (a PIVOT without an IN list: sql.ts).
 */
export interface Statements {
  readonly count: number;
  /**
   * Binds statement `index` and gives its kind ('SELECT', 'DELETE', 'CREATE', …). Binding runs
   * nothing, except what DuckDB does at bind time for some statements (EXPORT DATABASE makes its
   * directory); a statement that needs an earlier one to have run (a type it creates) binds after it.
   */
  kind(index: number): Promise<string>;
  run(index: number): Promise<void>;
  all(index: number): Promise<Tabular>;
}

export interface Database {
  readonly path: string | null;
  run(sql: string, params?: Params): Promise<void>;
  runPositional(sql: string, values: unknown[]): Promise<void>;
  /** Runs an INSERT/UPDATE/DELETE and returns how many rows it changed. */
  change(sql: string, params?: Params): Promise<number>;
  all(sql: string, params?: Params): Promise<Tabular>;
  /** The statements DuckDB's parser makes of `sql` (none for text with no statement); an error rejects. */
  statements(sql: string): Promise<Statements>;
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Another connection to the same database (its own transactions and temp tables). */
  connect(): Promise<Database>;
  /** Closes this connection; the first connection's close also closes the database. */
  close(): void;
}

/** DuckDB rejects values bound to names a statement does not use; callers may pass a superset. */
function usedParams(sql: string, params?: Params): Params | undefined {
  if (!params) return undefined;
  const used = Object.entries(params).filter(([name]) => new RegExp(`\\$${name}(?![A-Za-z0-9_])`).test(sql));
  return used.length ? Object.fromEntries(used) : undefined;
}

/** A statement's whole result as rows of cells, read a chunk and a column at a time (row by row costs ~1.6× as much). */
async function toTabular(result: DuckDBMaterializedResult): Promise<Tabular> {
  const named = result.columnNames();
  const columns = uniqueColumnNames(named);
  const types = result.columnTypes();
  types.forEach((type, i) => {
    const struct = structWithRepeatedNames(type);
    if (struct) {
      throw new InputError(`result column ${JSON.stringify(named[i])} holds a struct whose fields share a name (${struct}, as row(…) makes): each would overwrite the other in the output; name the fields, e.g. {'a': 1, 'b': 'x'} or struct_pack(a := 1, b := 'x')`);
    }
  });
  const rows: Row[] = [];
  // defineProperty: a column named "__proto__" is data, not the row's prototype.
  const proto = columns.indexOf('__proto__');
  for (const chunk of await result.fetchAllChunks()) {
    const count = chunk.rowCount;
    const cells = types.map((type, i) => {
      const vector = chunk.getColumnVector(i);
      const column = new Array<Cell>(count);
      for (let r = 0; r < count; r++) column[r] = cellFromValue(vector.getItem(r), type);
      return column;
    });
    for (let r = 0; r < count; r++) {
      const row: Row = {};
      for (let i = 0; i < columns.length; i++) {
        if (i === proto) Object.defineProperty(row, '__proto__', { value: cells[i][r], enumerable: true, writable: true, configurable: true });
        else row[columns[i]] = cells[i][r];
      }
      rows.push(row);
    }
  }
  const renamed = columns.flatMap((name, i) => (name === named[i] ? [] : [{ from: named[i], to: name }]));
  return renamed.length ? { columns, rows, renamed } : { columns, rows };
}

const none = (): never => {
  throw new RangeError('the SQL text holds no statement');
};

function describeOpenError(path: string, error: unknown): InputError {
  if (error instanceof InputError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const full = noSpaceError(error);
  if (full) return full;
  if (/Could not set lock on file/i.test(message)) {
    return new InputError(`database ${path} is busy: another process has it open (a load writes alone; queries share it with other queries); wait for it to finish and run again`);
  }
  if (/Permission denied|Operation not permitted/i.test(message)) return new InputError(`cannot open --db ${path}: permission denied; check the permissions of the file and of its directory (and that it is not immutable, lsattr)`);
  if (/Read-only file system/i.test(message)) return new InputError(`cannot open --db ${path} for writing: it is on a read-only file system; pass a --db path on a writable disk`);
  if (/Not a directory/i.test(message)) return new InputError(`--db ${path}: a directory on its path is a file; pass a path under a directory`);
  if (CORRUPT.test(message)) return corrupt(path, message);
  return new InputError(`${path} is not a DuckDB database trajaudit can open (${message.split('\n')[0]}); pass --db a new file name or a file written by \`trajaudit load\``);
}

const useCatalog = (catalog: string) => `USE "${catalog.replace(/"/g, '""')}"`;

/** DuckDB's buffer pool for a --db file a load writes, unless TRAJAUDIT_MEMORY_LIMIT says otherwise. */
export const DEFAULT_FILE_MEMORY_LIMIT = '192MB';
/**
 * The pool for a --db file read as it is: queries spill little, and the pages the allocator keeps
 * for them (allocator.ts) come on top, so that a report over 5 GiB stays under 500 MB; and enough
 * for its largest query (snapshot-attribution) there, which a smaller pool fails now and then.
 */
export const READ_FILE_MEMORY_LIMIT = '160MB';

/**
 * DuckDB installs and loads a known extension a statement needs (httpfs for an `s3://` path in
 * `sql`): it would download native code and write it under ~/.duckdb. Every extension trajaudit
 * uses (json, icu, parquet) is built in.
 */
const NO_EXTENSION_DOWNLOADS = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };

// DuckDB's own words for a damaged file (not just any message that names a file called checksum…).
const CORRUPT = /Corrupt database file|does not match stored checksum/;
const corrupt = (path: string, message: string) =>
  new InputError(`--db ${path} is corrupt (${message.split('\n')[0]}); restore it from a copy, or load into a new --db`);

const noTrajauditData = (path: string) =>
  new InputError(`--db ${path} holds no trajaudit data (another DuckDB file, or a load into it stopped before its first commit); run: trajaudit load <paths> --db ${path}`);

/** DuckDB's own errors, as the user can act on them; everything else stays an internal error. */
async function guarded<T>(path: string | null, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Out of memory, also at a commit (`TransactionContext Error: Failed to commit: failed to pin block …`).
    if (message.startsWith('Out of Memory Error') || /failed to pin block/i.test(message)) {
      throw new OutOfMemoryError(message.split('\n')[0], `raise TRAJAUDIT_MEMORY_LIMIT (a size with its unit, e.g. TRAJAUDIT_MEMORY_LIMIT=1GB; default ${DEFAULT_FILE_MEMORY_LIMIT} to load into a --db file, ${READ_FILE_MEMORY_LIMIT} to read one) or free memory`);
    }
    if (message.startsWith('IO Error') && CORRUPT.test(message)) throw corrupt(path ?? ':memory:', message);
    throw error;
  }
}

/**
 * `everyConnection` runs on the connections connect() makes too: a read-only database from another
 * version adds its TEMP views there (older-schema.ts), which are each connection's own.
 */
async function connectTo(instance: DuckDBInstance, path: string | null, settings: string[], everyConnection: string[], onClose: () => void): Promise<Database> {
  const connection: DuckDBConnection = await instance.connect();
  for (const setting of settings) await connection.run(setting);
  return {
    path,
    async run(sql, params) {
      await guarded(path, () => connection.run(sql, usedParams(sql, params)));
    },
    async change(sql, params) {
      return (await guarded(path, () => connection.run(sql, usedParams(sql, params)))).rowsChanged;
    },
    async runPositional(sql, values) {
      await guarded(path, () => connection.run(sql, values as never));
    },
    async all(sql, params) {
      return guarded(path, async () => toTabular(await connection.run(sql, usedParams(sql, params))));
    },
    async statements(sql) {
      let extracted: DuckDBExtractedStatements;
      try {
        extracted = await guarded(path, () => connection.extractStatements(sql));
      } catch (error) {
        // The binding's error for text that holds no statement (";", a lone comment).
        if (error instanceof Error && error.message === 'Error in native callback') return { count: 0, kind: none, run: none, all: none };
        throw error;
      }
      const prepared = new Map<number, DuckDBPreparedStatement>();
      const prepare = async (index: number) => {
        const statement = prepared.get(index) ?? (await guarded(path, () => extracted.prepare(index)));
        prepared.set(index, statement);
        return statement;
      };
      return {
        count: extracted.count,
        async kind(index) {
          const { statementType } = await prepare(index);
          return duckdb.StatementType[statementType] ?? String(statementType);
        },
        async run(index) {
          const statement = await prepare(index);
          await guarded(path, () => statement.run());
        },
        async all(index) {
          const statement = await prepare(index);
          return guarded(path, async () => toTabular(await statement.run()));
        },
      };
    },
    async transaction(work) {
      await connection.run('BEGIN TRANSACTION');
      try {
        const value = await work();
        await guarded(path, () => connection.run('COMMIT'));
        return value;
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    connect() {
      return connectTo(instance, path, everyConnection, everyConnection, () => undefined);
    },
    close() {
      connection.closeSync();
      onClose();
    },
  };
}

/**
 * Opens (creating if needed) a DuckDB file, or an in-memory database when path is undefined.
 * `readOnly` (a query over --db as it is): any number of readers at once, and no file is created.
 * `wideRows`: the load brings rows wide enough for small row groups (attach-for-writing.ts).
 */
export async function openDatabase(schema: Schema, path?: string, options: { readOnly?: boolean; wideRows?: boolean } = {}): Promise<Database> {
  // Every TRAJAUDIT_* variable is checked here, the one door of every data command, before any input.
  const env = environment();
  // DuckDB takes '' and ':memory:' as an in-memory database, and `md:` as a remote one.
  if (path !== undefined && (path === '' || path.startsWith(':') || /^(md|motherduck):/i.test(path))) {
    throw new InputError(`--db ${JSON.stringify(path)} is not a file name; pass --db a path for the DuckDB database file (or leave --db out to work in memory)`);
  }
  if (path !== undefined && fs.existsSync(path) && fs.statSync(path).isDirectory()) {
    throw new InputError(`--db ${path} is a directory; pass a file name for the DuckDB database`);
  }
  // DuckDB would wait on a FIFO for a writer, for ever.
  if (path !== undefined && fs.existsSync(path) && !fs.statSync(path).isFile()) {
    throw new InputError(`--db ${path} is a FIFO, socket or device, not a file; pass a file name for the DuckDB database`);
  }
  // `--db=~/x.db` and `--db=~` reach trajaudit unexpanded: a file named `~` in the current
  // directory (or in a directory named `~` made by mistake before) is not what the user meant.
  if (path !== undefined && /^~($|\/)/.test(path) && !fs.existsSync(path)) {
    throw new InputError(`--db ${path}: the shell did not expand \`~\` (it does not after \`=\` or in quotes); write $HOME instead`);
  }
  if (path !== undefined && !fs.existsSync(pathModule.dirname(pathModule.resolve(path)))) {
    throw new InputError(`--db ${path}: directory ${pathModule.dirname(pathModule.resolve(path))} does not exist; create it, or pass a path in a directory that exists`);
  }
  try {
    // Rows parsed in Node and DuckDB's spill go there; a TMPDIR naming a file passes the access check.
    fs.accessSync(os.tmpdir(), fs.constants.W_OK);
    if (!fs.statSync(os.tmpdir()).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new InputError(`the temp directory ${os.tmpdir()} does not exist or cannot be written; set TMPDIR to a directory you can write`);
  }
  const readOnly = path !== undefined && options.readOnly === true;
  if (readOnly && !fs.existsSync(path)) {
    throw new InputError(`--db ${path} does not exist; create it with: trajaudit load <paths> --db ${path}`);
  }
  // A file a load was killed in while DuckDB made it (unmade-database.ts) holds nothing: a query
  // finds no data there, as where a load stopped before its first commit; a load makes it anew.
  if (readOnly && isUnmadeDatabase(path)) throw noTrajauditData(path);
  if (path !== undefined && !readOnly) {
    // DuckDB writes its log (<db>.wal) beside the file at the first commit.
    const dir = pathModule.dirname(pathModule.resolve(path));
    try {
      fs.accessSync(dir, fs.constants.W_OK);
    } catch {
      throw new InputError(`--db ${path}: cannot write in ${dir} (permission denied), where DuckDB keeps the database's log; pass a --db in a directory you can write`);
    }
  }
  // A link to a file not made yet is opened as that file, as it is once made: DuckDB keeps its log
  // beside the name it opens, and a log beside the link would be read by no later run.
  const file = path === undefined ? ':memory:' : linkTarget(path);
  if (path !== undefined && !readOnly) {
    try {
      await makeDatabaseFile(file, NO_EXTENSION_DOWNLOADS);
    } catch (error) {
      throw describeOpenError(path, error);
    }
  }
  let instance: DuckDBInstance;
  let attached: AttachedForWriting | null = null;
  try {
    if (path !== undefined && !readOnly) {
      attached = await attachForWriting(file, options.wideRows === true, NO_EXTENSION_DOWNLOADS);
      instance = attached.instance;
    } else instance = await duckdb.DuckDBInstance.create(file, { ...(readOnly ? { access_mode: 'READ_ONLY' } : {}), ...NO_EXTENSION_DOWNLOADS });
  } catch (error) {
    throw describeOpenError(path ?? ':memory:', error);
  }
  // Spill to the system temp dir, never to a `.tmp` beside the user's files; a file database
  // keeps a small buffer pool so that memory stays bounded on multi-GiB homes. A dir
  // of this process's own: a signal removes it (temp-dirs.ts) without touching another's spill.
  const spill = makeTempDir('trajaudit-duckdb-spill-');
  const settings = [`SET TimeZone = 'UTC'`, `SET temp_directory = '${spill.replace(/'/g, "''")}'`];
  const limit = env.memoryLimit ?? (path === undefined ? undefined : readOnly ? READ_FILE_MEMORY_LIMIT : DEFAULT_FILE_MEMORY_LIMIT);
  if (limit) settings.push(`SET memory_limit = '${limit.replace(/'/g, "''")}'`);
  const everyConnection = [`SET TimeZone = 'UTC'`];
  if (attached !== null) {
    settings.unshift(useCatalog(attached.catalog));
    everyConnection.unshift(useCatalog(attached.catalog));
  }
  const db = await connectTo(instance, path ?? null, settings, everyConnection, () => {
    instance.closeSync();
    removeTempDir(spill);
  });
  const clash = path === undefined ? null : await clashingName(db, schema);
  if (clash !== null) {
    db.close();
    throw new InputError(`--db ${path} is another program's DuckDB database: it has its own ${clash}, where trajaudit keeps one of its tables, views or macros, and trajaudit never changes another program's tables; pass --db a new file`);
  }
  if (readOnly) {
    // Written by load, which made the schema; unless that load was killed before its first commit.
    const made = await db.all(`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'input_files'`);
    if (made.rows[0].n === 0) {
      db.close();
      throw noTrajauditData(path);
    }
    // Written by another version of trajaudit: read through this version's schema, made on this
    // connection only; the file stays as it is (other readers share it, it may be read-only).
    // Only a missing trajaudit_meta means an older version; an error reading it (a corrupt block) is said.
    let version: unknown = null;
    try {
      const meta = await db.all(`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'trajaudit_meta'`);
      if (meta.rows[0].n === 1) version = (await db.all(`SELECT max(value) AS v FROM trajaudit_meta WHERE key = 'schema_version'`)).rows[0].v;
    } catch (error) {
      db.close();
      throw describeOpenError(path, error);
    }
    if (version === schema.version) return db;
    try {
      const statements = await olderSchemaStatements(db, path, await currentColumns(schema), schema);
      for (const statement of statements) await db.run(statement);
      everyConnection.push(...statements);
    } catch (error) {
      db.close();
      if (error instanceof InputError) throw error;
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new InputError(`--db ${path} was written by another version of trajaudit, which this version cannot read (${message}); load your inputs into a new --db (trajaudit load <paths> --db NEW_FILE)`);
    }
    return db;
  }
  try {
    if (path !== undefined) {
      const unknown = await unknownColumns(db, schema.version, () => currentColumns(schema));
      if (unknown.length > 0) {
        throw new InputError(`--db ${path} has column${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}, which this version of trajaudit does not know (a newer version wrote the file, or the column was added by hand), so it cannot load into it; nothing was written: load into a new --db (trajaudit load <paths> --db NEW_FILE), or use the version that wrote it`);
      }
    }
    await createSchema(db, schema);
    if (attached?.toRecord != null) await db.run(`INSERT OR REPLACE INTO trajaudit_meta VALUES ($key, $value)`, { key: ROW_GROUP_KEY, value: String(attached.toRecord) });
  } catch (error) {
    db.close();
    throw describeOpenError(path ?? ':memory:', error);
  }
  return db;
}

/** The file a path names through its links, whether or not that file exists yet. */
function linkTarget(file: string): string {
  let current = pathModule.resolve(file);
  for (let hops = 0; hops < 40; hops += 1) {
    let link = false;
    try {
      link = fs.lstatSync(current).isSymbolicLink();
    } catch {
      // missing, or a file on its path (ENOTDIR): DuckDB's own error says which
    }
    if (!link) return current;
    current = pathModule.resolve(pathModule.dirname(current), fs.readlinkSync(current));
  }
  return current; // a loop of links: DuckDB says it cannot open it
}

/** This version's tables and columns, as a new database gets them. */
async function currentColumns(schema: Schema) {
  const fresh = await openDatabase(schema);
  try {
    return await tableColumns(fresh);
  } finally {
    fresh.close();
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A value as text for insertRows: the INSERT casts it to its column's type. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  // A lone surrogate becomes U+FFFD, as a bound parameter's would (DuckDB's JSON refuses its escape).
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\ufffd');
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  throw new TypeError(`insertRows: a value of type ${typeof value}`);
}

/**
 * Rows built in Node (the ledger's, the session dirs') into a table, as one JSON text per chunk:
 * DuckDB binds a multi-row VALUES list's parameters slowly (an order of magnitude slower for
 * thousands of rows), and read_json, the other fast way, takes 32 MiB of the buffer pool whatever
 * the file's size.
 */
export async function insertRows(db: Database, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  const CHUNK = 5000;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const text = JSON.stringify(rows.slice(i, i + CHUNK).map((row) => row.map(asText)));
    const values = columns.map((_, k) => `r[${k + 1}]`).join(', ');
    await db.run(`INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values} FROM (SELECT unnest(json_transform($rows, '[["VARCHAR"]]')) AS r)`, { rows: text });
  }
}
