// Rows parsed in Node (warn.log records, documents, task census), gathered across files and
// handed to DuckDB as one temporary NDJSON file per table: DuckDB's reader is far faster than
// binding thousands of parameters, and the types come from the table itself.
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/database.js';
import { literalPath } from '../db/literal-path.js';
import { readTime } from '../db/read-time.js';
import { makeTempDir, removeTempDir } from '../temp-dirs.js';

/**
 * A longer row is inserted with its values bound: read_json reads a record only within buffers
 * of its maximum_object_size (16 MiB by default, a 40 MiB warn.log record failed), and buffers
 * big enough for any record would not fit the buffer pool.
 */
const FILE_ROW_CHARS = 1024 * 1024;

/**
 * A value as text, as read_json reads it from the NDJSON file: a JSON column's value is its JSON
 * text, which DuckDB's json() then parses, never JavaScript: JSON.parse rounded
 * 18446744073709551617, made 1e400 null and kept only the last of two equal keys, where the same
 * JSON in events.data is stored as written (docs/tables.md#numbers-in-stored-json).
 */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Column types per table, asked of DuckDB once per connection, for every table in one question. */
const typesByConnection = new WeakMap<Database, Map<string, Map<string, string>>>();

/** A column that keeps the text of another when its cast fails (e.g. `ts_unread` of `ts`), NULL otherwise. */
export interface UnreadText {
  column: string;
  of: string;
}

export class RowBatch {
  private readonly tables = new Map<string, { columns: string[]; rows: unknown[][]; unread?: UnreadText }>();

  add(table: string, columns: string[], rows: unknown[][], unread?: UnreadText): void {
    const entry = this.tables.get(table) ?? { columns, rows: [], unread };
    for (const row of rows) entry.rows.push(row);
    this.tables.set(table, entry);
  }

  async flush(db: Database): Promise<void> {
    const dir = makeTempDir('trajaudit-rows-');
    try {
      for (const [table, { columns, rows, unread }] of this.tables) {
        if (rows.length === 0) continue;
        let types = typesByConnection.get(db)?.get(table);
        if (!types) {
          typesByConnection.set(db, await columnTypes(db));
          types = typesByConnection.get(db)!.get(table) ?? new Map<string, string>();
        }
        const file = path.join(dir, `${table}.jsonl`);
        const isJson = columns.map((c) => types.get(c) === 'JSON');
        const lines = rows.map((row) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, isJson[i] ? asText(row[i]) : row[i]]))));
        // Every value arrives as text. JSON text is parsed by json(), as read_json parses events.data;
        // other values parsed from the input are cast with TRY_CAST: an impossible date or a number
        // out of range becomes NULL (the record's JSON keeps it) instead of failing the whole load.
        const spec = columns.map((c) => `${c}: 'VARCHAR'`).join(', ');
        const cast = (c: string) => {
          const type = types.get(c);
          if (type === 'VARCHAR') return c;
          if (type === 'JSON') return `json(${c})`;
          return type === 'TIMESTAMP WITH TIME ZONE' ? readTime(c) : `TRY_CAST(${c} AS ${type})`;
        };
        const select = [...columns.map(cast), ...(unread ? [`CASE WHEN ${cast(unread.of)} IS NULL THEN ${unread.of} END`] : [])].join(', ');
        const into = [...columns, ...(unread ? [unread.column] : [])].join(', ');
        const short = lines.filter((line) => line.length <= FILE_ROW_CHARS);
        if (short.length) {
          fs.writeFileSync(file, `${short.join('\n')}\n`);
          await db.run(
            `INSERT INTO ${table} (${into}) SELECT ${select}
             FROM read_json($file, format='newline_delimited', columns={${spec}})`,
            { file: literalPath(file) },
          );
        }
        const bound = columns.map((c) => `?::VARCHAR AS ${c}`).join(', ');
        for (const [k, row] of rows.entries()) {
          if (lines[k].length <= FILE_ROW_CHARS) continue;
          await db.runPositional(`INSERT INTO ${table} (${into}) SELECT ${select} FROM (SELECT ${bound})`, row.map(asText));
        }
      }
      this.tables.clear();
    } finally {
      removeTempDir(dir);
    }
  }
}

async function columnTypes(db: Database): Promise<Map<string, Map<string, string>>> {
  const result = await db.all(`SELECT table_name, column_name, data_type FROM duckdb_columns()`);
  const tables = new Map<string, Map<string, string>>();
  for (const r of result.rows) {
    const columns = tables.get(r.table_name as string) ?? new Map<string, string>();
    columns.set(r.column_name as string, r.data_type as string);
    tables.set(r.table_name as string, columns);
  }
  return tables;
}
