import type { CommandResult, Progress } from '../command-result.js';
import type { Database } from '../db/database.js';
import { ExitCode, InputError, UsageError } from '../errors.js';
import { loadInputs } from '../ingest/load-inputs.js';
import { renderTabular, type TabularFormat } from '../render/index.js';

export interface SqlOptions {
  statement: string;
  paths: string[];
  db?: string;
  format: TabularFormat;
  /** Terminal width the table format wraps to (cli.ts); none: no wrapping. */
  width?: number;
}

const TRIVIA = String.raw`(?:\s|--[^\n]*(?:\n|$)|/\*[\s\S]*?\*/)*`;
const EXPLAIN = new RegExp(String.raw`^${TRIVIA}explain(?![\w$])${TRIVIA}(?:analy[sz]e(?![\w$])|\([^()]*\))?`, 'i');
const FIRST_WORD = new RegExp(String.raw`^${TRIVIA}(\(|[A-Za-z_]+)`);
/** How a query can start. Checked on the text: DuckDB runs part of some statements while it binds them (EXPORT DATABASE makes its directory). */
const QUERY_START = new Set(['(', 'select', 'with', 'from', 'values', 'table', 'show', 'describe', 'desc', 'summarize']);

/**
 * sql only reads: a --db is trajaudit's ledger of what it loaded (a row deleted there is never
 * loaded again), and nothing may be written inside the input tree (COPY … TO could overwrite an
 * input). The statement must be a query, or an EXPLAIN of one (EXPLAIN ANALYZE runs it): first by
 * its first word, before DuckDB binds it, then by the kind DuckDB binds it as (WITH … DELETE).
 */
async function checkQuery(db: Database, statement: string): Promise<void> {
  const explain = EXPLAIN.exec(statement);
  const query = explain ? statement.slice(explain[0].length) : statement;
  const word = FIRST_WORD.exec(query)?.[1];
  if (word === undefined || !QUERY_START.has(word.toLowerCase())) throw refusal(word ?? query.trim().slice(0, 20));
  const { type } = await db.describeStatements(query, { bind: true });
  if (type !== 'SELECT') throw refusal(type ?? 'this statement');
}

function refusal(kind: string): UsageError {
  const hint = /^(call|pragma)$/i.test(kind) ? ' (write SELECT * FROM the function instead, e.g. SELECT * FROM pragma_table_info(\'events\'))' : '';
  return new UsageError(
    `sql runs queries only (SELECT, or EXPLAIN of one), not ${kind.toUpperCase()}${hint}: it never changes the database or writes files; to save a result, redirect --format csv or json to a file`,
  );
}

export async function sql(options: SqlOptions, progress: Progress): Promise<CommandResult> {
  const { db, warnings } = await loadInputs({ paths: options.paths, db: options.db }, progress);
  try {
    let table;
    try {
      const { count } = options.statement.trim() === '' ? { count: 0 } : await db.describeStatements(options.statement, { bind: false });
      if (count !== 1) {
        throw new UsageError(count === 0
          ? 'the SQL text holds no statement; pass one, e.g. trajaudit sql "SELECT count(*) FROM events"'
          : `the SQL text holds ${count} statements; sql runs one at a time (one output), so pass them one by one`);
      }
      await checkQuery(db, options.statement);
      table = await db.all(options.statement);
    } catch (error) {
      if (error instanceof UsageError || error instanceof InputError) throw error; // already says what to do
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0].replace(/^Failed to extract statements: /, '');
      throw new UsageError(`the SQL statement failed: ${message} (tables and views are listed in the README, or run: trajaudit sql "SHOW TABLES")`);
    }
    const renamed = (table.renamed ?? []).map(({ from, to }) => `a second column named ${from} is shown as ${to}; name the columns with AS to choose`);
    return { output: renderTabular(table, options.format, { width: options.width }), exitCode: ExitCode.ok, warnings: [...(warnings ?? []), ...renamed] };
  } finally {
    db.close();
  }
}
