// Rows parsed in Node (warn.log records, documents, task census), gathered across files and
// handed to DuckDB as one temporary NDJSON file per table: DuckDB's reader is far faster than
// binding thousands of parameters, and the types come from the table itself.
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/database.js';
import { literalPath } from '../db/literal-path.js';
import { makeTempDir, removeTempDir } from '../temp-dirs.js';

/** Column types per table, asked once per connection (~7 ms a question; a load makes many batches). */
const typesByConnection = new WeakMap<Database, Map<string, Map<string, string>>>();

export class RowBatch {
  private readonly tables = new Map<string, { columns: string[]; rows: unknown[][] }>();

  add(table: string, columns: string[], rows: unknown[][]): void {
    const entry = this.tables.get(table) ?? { columns, rows: [] };
    for (const row of rows) entry.rows.push(row);
    this.tables.set(table, entry);
  }

  async flush(db: Database): Promise<void> {
    const dir = makeTempDir('trajaudit-rows-');
    try {
      for (const [table, { columns, rows }] of this.tables) {
        if (rows.length === 0) continue;
        const known = typesByConnection.get(db) ?? new Map<string, Map<string, string>>();
        typesByConnection.set(db, known);
        const types = known.get(table) ?? (await columnTypes(db, table));
        known.set(table, types);
        const file = path.join(dir, `${table}.jsonl`);
        // JSON columns are embedded as values (not as strings) so they arrive as the same JSON.
        const isJson = columns.map((c) => types.get(c) === 'JSON');
        const lines = rows.map((row) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, isJson[i] && typeof row[i] === 'string' ? JSON.parse(row[i] as string) : row[i]]))));
        fs.writeFileSync(file, `${lines.join('\n')}\n`);
        // Values parsed from the input arrive as text and are cast with TRY_CAST: an impossible
        // date or a number out of range becomes NULL (the record's JSON keeps it) instead of
        // failing the whole load.
        const textual = (c: string) => types.get(c) === 'JSON' || types.get(c) === 'VARCHAR';
        const spec = columns.map((c) => `${c}: '${textual(c) ? types.get(c) : 'VARCHAR'}'`).join(', ');
        const select = columns.map((c) => (textual(c) ? c : `TRY_CAST(${c} AS ${types.get(c)})`)).join(', ');
        await db.run(
          `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${select}
           FROM read_json($file, format='newline_delimited', columns={${spec}})`,
          { file: literalPath(file) },
        );
      }
      this.tables.clear();
    } finally {
      removeTempDir(dir);
    }
  }
}

async function columnTypes(db: Database, table: string): Promise<Map<string, string>> {
  const result = await db.all(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $t`, { t: table });
  return new Map(result.rows.map((r) => [r.column_name as string, r.data_type as string]));
}
