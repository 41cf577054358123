import type { CommandResult, Progress } from '../command-result.js';
import type { Database, Statements } from '../db/database.js';
import { duckdbErrorText } from '../db/duckdb-error-text.js';
import { ExitCode, InputError, UsageError } from '../errors.js';
import { answerExitCode, loadInputs } from '../ingest/load-inputs.js';
import { renderTabular, type TabularFormat } from '../render/index.js';
import type { Tabular } from '../render/types.js';
import { whileRunning } from '../while-running.js';

export interface SqlOptions {
  /** --quiet: no progress, no notice of unreadable lines. */
  quiet?: boolean;
  statement: string;
  paths: string[];
  db?: string;
  format: TabularFormat;
  /** Terminal width the table format fits to (main.ts); none: every cell whole. */
  width?: number;
  /** Whether the table format may dim NULL (main.ts: a colour terminal, NO_COLOR unset). */
  color?: boolean;
}

const TRIVIA = String.raw`(?:\s|--[^\n]*(?:\n|$)|/\*[\s\S]*?\*/)*`;
const EXPLAIN = new RegExp(String.raw`^${TRIVIA}explain(?![\w$])${TRIVIA}(?:analy[sz]e(?![\w$])|\([^()]*\))?`, 'i');
const FIRST_WORD = new RegExp(String.raw`^${TRIVIA}(\(|[A-Za-z_]+)`);
/** How a query can start. Checked on the text: DuckDB runs part of some statements while it binds them (EXPORT DATABASE makes its directory). */
const QUERY_START = new Set(['(', 'select', 'with', 'from', 'values', 'table', 'show', 'describe', 'desc', 'summarize', 'pivot', 'unpivot', 'pivot_wider', 'pivot_longer']);

const NO_STATEMENT = 'the SQL text holds no statement; pass one, e.g. trajaudit sql "SELECT count(*) FROM events"';

/**
 * sql only reads: a --db is trajaudit's ledger of what it loaded (a row deleted there is never
 * loaded again), and nothing may be written inside the input tree (COPY … TO could overwrite an
 * input). The statement must be a query, or an EXPLAIN of one (EXPLAIN ANALYZE runs it): first by
 * its first word, before DuckDB binds anything, then by the kind DuckDB binds it as (WITH … DELETE).
 */
function checkFirstWord(query: string): void {
  const word = FIRST_WORD.exec(query)?.[1];
  if (word === undefined || !QUERY_START.has(word.toLowerCase())) throw refusal(word ?? query.trim().slice(0, 20));
}

function refusal(kind: string): UsageError {
  const hint = /^(call|pragma)$/i.test(kind) ? ' (write SELECT * FROM the function instead, e.g. SELECT * FROM pragma_table_info(\'events\'))' : '';
  return new UsageError(
    `sql runs queries only (SELECT, or EXPLAIN of one), not ${kind.toUpperCase()}${hint}: it never changes the database or writes files; to save a result, redirect --format csv or json to a file`,
  );
}

interface UserStatement {
  /** Its place among the parser's statements, and its kind as bound. */
  index: number;
  kind: string;
  /** DuckDB wrapped it in BEGIN … COMMIT: the COMMIT, the last statement, runs after it. */
  wrapped: boolean;
}

/**
 * The one statement the user wrote, once the statements DuckDB's parser put before it have run.
 * A PIVOT without an IN list (its columns are the values it finds) is parsed into a
 * `CREATE TEMPORARY TYPE __pivot_enum_… AS ENUM (SELECT DISTINCT …)` per such PIVOT, then the query
 * that reads those types; under EXPLAIN (or a WITH) the whole is wrapped in BEGIN … COMMIT. Those
 * types live in the connection's temp catalog, in memory, gone when it closes (a read-only --db
 * takes them too): nothing in the database or on disk changes. The text begins with a query word
 * (checkFirstWord), and no statement that begins so binds as a CREATE or a transaction (DuckDB
 * refuses `WITH … CREATE`), so a CREATE before the first query is DuckDB's own: one the user wrote
 * would follow a query of theirs, where this stops and refuses the text for holding several.
 */
async function userStatement(statements: Statements): Promise<UserStatement> {
  const { count } = statements;
  let index = 0;
  let kind = await statements.kind(0);
  const wrapped = kind === 'TRANSACTION' && count > 2;
  if (wrapped) {
    await statements.run(0);
    index = 1;
    kind = await statements.kind(1);
  }
  const last = wrapped ? count - 2 : count - 1;
  while (kind === 'CREATE' && index < last) {
    await statements.run(index);
    index += 1;
    kind = await statements.kind(index);
  }
  if (index !== last || (wrapped && (await statements.kind(count - 1)) !== 'TRANSACTION')) {
    const several = index === 0 ? `${count} statements` : 'more than one statement';
    throw new UsageError(`the SQL text holds ${several}; sql runs one at a time (one output), so pass them one by one`);
  }
  return { index, kind, wrapped };
}

/** Checks that the text is one read-only query and runs it. */
async function runQuery(db: Database, text: string): Promise<Tabular> {
  const statements = text.trim() === '' ? undefined : await db.statements(text);
  if (statements === undefined || statements.count === 0) throw new UsageError(NO_STATEMENT);
  const explain = EXPLAIN.exec(text);
  // The explained query keeps the line breaks before it: DuckDB's `LINE n:` then counts the lines of the text as given.
  const query = explain ? `${explain[0].replace(/[^\n]/g, '')}${text.slice(explain[0].length)}` : text;
  checkFirstWord(query);
  // EXPLAIN ANALYZE runs the query it explains: the kind that counts is the query's.
  if (explain) {
    const inner = await db.statements(query);
    if (inner.count === 0) throw refusal(query.trim().slice(0, 20));
    const { kind } = await userStatement(inner);
    if (kind !== 'SELECT') throw refusal(kind);
  }
  const statement = await userStatement(statements);
  if (!explain && statement.kind !== 'SELECT') throw refusal(statement.kind);
  const table = await statements.all(statement.index);
  if (statement.wrapped) await statements.run(statements.count - 1);
  return table;
}

/** What to do about DuckDB's error: a missing extension cannot be loaded; anything else is the SQL's to fix. */
function whatToDo(summary: string): string {
  if (/^Missing Extension Error|exists in the \S+ extension\.?$/.test(summary)) {
    return "trajaudit loads no DuckDB extension: read local files, with DuckDB's built-in functions; docs/cli.md#sql";
  }
  return 'tables and views are listed in docs/tables.md, or run: trajaudit sql "SHOW TABLES"';
}

export async function sql(options: SqlOptions, progress: Progress): Promise<CommandResult> {
  const loaded = await loadInputs({ paths: options.paths, db: options.db, quiet: options.quiet }, progress);
  const { db, warnings } = loaded;
  try {
    let table;
    try {
      table = await whileRunning(progress, 'the SQL statement', () => runQuery(db, options.statement));
    } catch (error) {
      if (error instanceof UsageError || error instanceof InputError) throw error; // already says what to do
      // DuckDB's first line joins ours; its hints (did you mean, candidate bindings, the caret) go under it.
      const { summary, detail } = duckdbErrorText(error);
      throw new UsageError(`the SQL statement failed: ${summary} (${whatToDo(summary)})${detail}`);
    }
    const renamed = (table.renamed ?? []).map(({ from, to }) => `a second column named ${from} is shown as ${to}; name the columns with AS to choose`);
    return { output: renderTabular(table, options.format, { width: options.width, color: options.color }), exitCode: answerExitCode(loaded), warnings: [...(warnings ?? []), ...renamed] };
  } finally {
    db.close();
  }
}
