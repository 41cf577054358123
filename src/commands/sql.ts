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
      table = await db.all(options.statement);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      throw new UsageError(`the SQL statement failed: ${message} (tables and views are listed in the README, or run: trajaudit sql "SHOW TABLES")`);
    }
    return { output: renderTabular(table, options.format), exitCode: ExitCode.ok, warnings };
  } finally {
    db.close();
  }
}
