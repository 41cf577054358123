import type { CommandResult, Progress } from '../command-result.js';
import { ExitCode, UsageError } from '../errors.js';
import { loadInputs } from '../ingest/load-inputs.js';
import { renderTabular, type TabularFormat } from '../render/index.js';

export interface SqlOptions {
  statement: string;
  paths: string[];
  db?: string;
  format: TabularFormat;
}

export async function sql(options: SqlOptions, progress: Progress): Promise<CommandResult> {
  const { db, warnings } = await loadInputs({ paths: options.paths, db: options.db }, progress);
  try {
    let table;
    try {
      const statements = options.statement.trim() === '' ? 0 : await db.countStatements(options.statement);
      if (statements !== 1) {
        throw new UsageError(statements === 0
          ? 'the SQL text holds no statement; pass one, e.g. trajaudit sql "SELECT count(*) FROM events"'
          : `the SQL text holds ${statements} statements; sql runs one at a time (one output), so pass them one by one`);
      }
      table = await db.all(options.statement);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0].replace(/^Failed to extract statements: /, '');
      throw new UsageError(`the SQL statement failed: ${message} (tables and views are listed in the README, or run: trajaudit sql "SHOW TABLES")`);
    }
    return { output: renderTabular(table, options.format), exitCode: ExitCode.ok, warnings };
  } finally {
    db.close();
  }
}
