// A query over --db as it is opens the file read-only, so that queries share it and a read-only
// or archived file can be read. When another version of trajaudit wrote it, its stored views are
// not this version's: this version's are made on the query's own connection as TEMP views, with
// the tables brought to this version's shape the same way, and the file is never written. `load`
// (read-write) renews the stored schema instead (schema.ts, createSchema).
import { InputError } from '../errors.js';
import type { Database } from './database.js';
import type { DerivedTable, Schema } from './schema.js';

export interface TableColumn {
  table: string;
  column: string;
  type: string;
}

/** The columns of the tables in the database's main schema, in table then column order. */
export async function tableColumns(db: Database): Promise<TableColumn[]> {
  const found = await db.all(
    `SELECT c.table_name AS "table", c.column_name AS "column", c.data_type AS type
     FROM duckdb_columns() c JOIN duckdb_tables() t USING (database_name, schema_name, table_name)
     WHERE c.database_name = current_database() AND c.schema_name = 'main'
     ORDER BY c.table_name, c.column_index`,
  );
  return found.rows as unknown as TableColumn[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The statements that make a read-only connection to `path` see this version's tables and views,
 * given this version's columns (`current`): a table the file lacks is an empty TEMP view, a table
 * that lacks a column `load` adds (ALTER TABLE … ADD COLUMN) is a TEMP view of it with that column
 * NULL, as `load` would leave its old rows; then the views. A column no load adds cannot be made
 * up: the file is refused, as `load` into it would fail too.
 */
export async function olderSchemaStatements(db: Database, path: string, current: TableColumn[], schema: Schema): Promise<string[]> {
  const stored = new Set((await tableColumns(db)).map((c) => `${c.table}.${c.column}`));
  const storedTables = new Set([...stored].map((name) => name.slice(0, name.indexOf('.'))));
  const database = (await db.all(`SELECT current_database() AS name`)).rows[0].name as string;
  const byTable = new Map<string, TableColumn[]>();
  for (const c of current) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);

  const missingOf = (table: string) => (byTable.get(table) ?? []).filter((c) => !stored.has(`${c.table}.${c.column}`));
  /** A derived table that lacks columns, with what it is computed from (stored, or computed itself). */
  const computedFrom = (table: string): DerivedTable | undefined => {
    const derived = schema.derivedTables.find((d) => d.table === table);
    if (!derived || missingOf(table).length === 0) return undefined;
    return storedTables.has(derived.from) || computedFrom(derived.from) ? derived : undefined;
  };

  const statements: string[] = [];
  const lacking: string[] = [];
  // Derived tables in the schema's order, each after the one it derives from.
  const tables = [...schema.derivedTables.map((d) => d.table).filter((t) => byTable.has(t)), ...[...byTable.keys()].filter((t) => !schema.derivedTables.some((d) => d.table === t))];
  for (const table of tables) {
    const missing = missingOf(table);
    if (missing.length === 0) continue;
    const nulls = missing.map((c) => `CAST(NULL AS ${c.type}) AS ${quote(c.column)}`).join(', ');
    const derived = computedFrom(table);
    if (derived) {
      // Missing or of an older shape: computed from the rows it derives from, as the next load
      // fills it (schema.ts, DerivedTable); from the TEMP view of its source when that is computed too.
      const source = computedFrom(derived.from) ? quote(derived.from) : `${quote(database)}.main.${quote(derived.from)}`;
      statements.push(`CREATE OR REPLACE TEMP VIEW ${quote(table)} AS ${derived.rows(source)}`);
    } else if (!storedTables.has(table)) {
      statements.push(`CREATE OR REPLACE TEMP VIEW ${quote(table)} AS SELECT ${nulls} WHERE false`);
    } else if (missing.every((c) => schema.addedColumns.has(`${c.table}.${c.column}`))) {
      // Qualified: inside the TEMP view, the bare name would be the view itself.
      statements.push(`CREATE OR REPLACE TEMP VIEW ${quote(table)} AS SELECT *, ${nulls} FROM ${quote(database)}.main.${quote(table)}`);
    } else {
      lacking.push(...missing.filter((c) => !schema.addedColumns.has(`${c.table}.${c.column}`)).map((c) => `${c.table}.${c.column}`));
    }
  }
  if (lacking.length > 0) {
    throw new InputError(`--db ${path} was written by another version of trajaudit and lacks column${lacking.length === 1 ? '' : 's'} ${lacking.join(', ')}, which this version reads and cannot make up; load your inputs into a new --db (trajaudit load <paths> --db NEW_FILE)`);
  }
  return [...statements, schema.tempViews];
}

/**
 * "table.column" for each column of trajaudit's tables in the file that this version's tables do
 * not have: a newer version's, or one added by hand in a DuckDB client. `load` writes its rows
 * without them, so it refuses such a file before writing anything (the schema version included).
 * Only a file of another version is looked at; `current` is this version's columns.
 */
export async function unknownColumns(db: Database, version: string, current: () => Promise<TableColumn[]>): Promise<string[]> {
  const meta = await db.all(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'trajaudit_meta' AND database_name = current_database() AND schema_name = 'main'`);
  if (meta.rows[0].n === 1 && (await db.all(`SELECT max(value) AS v FROM trajaudit_meta WHERE key = 'schema_version'`)).rows[0].v === version) return [];
  const stored = await tableColumns(db);
  if (stored.length === 0) return [];
  const known = await current();
  const tables = new Set(known.map((c) => c.table));
  const names = new Set(known.map((c) => `${c.table}.${c.column}`));
  return stored.filter((c) => tables.has(c.table) && !names.has(`${c.table}.${c.column}`)).map((c) => `${c.table}.${c.column}`);
}
