import { type Database, insertRows } from '../db/database.js';

/** Rows parsed in Node, gathered across many small files and written in a few multi-row INSERTs. */
export class RowBatch {
  private readonly tables = new Map<string, { columns: string[]; rows: unknown[][] }>();

  add(table: string, columns: string[], rows: unknown[][]): void {
    const entry = this.tables.get(table) ?? { columns, rows: [] };
    entry.rows.push(...rows);
    this.tables.set(table, entry);
  }

  async flush(db: Database): Promise<void> {
    for (const [table, { columns, rows }] of this.tables) await insertRows(db, table, columns, rows);
    this.tables.clear();
  }
}
