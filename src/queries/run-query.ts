import type { Database, Params } from '../db/database.js';
import { duckdbErrorText } from '../db/duckdb-error-text.js';
import { InputError, InternalError, UsageError } from '../errors.js';
import type { Tabular } from '../render/types.js';
import { type CannedQuery, packagePath } from './load-queries.js';

export async function runQuery(db: Database, query: CannedQuery, params: Params): Promise<Tabular> {
  try {
    return await db.all(query.sql, params);
  } catch (error) {
    // The machine's state (out of memory, a full disk) as db/ says it: not the query's fault.
    if (error instanceof InputError || error instanceof UsageError) throw error;
    // DuckDB's hints go under the line; its LINE numbers are lines of the query's file, header included.
    const { summary, detail } = duckdbErrorText(error);
    // Values are validated by type before binding; what DuckDB can still refuse is their content
    // (an RE2 pattern it cannot compile, a value out of range): the user's to fix.
    if (/^(Invalid Input|Conversion|Out of Range) Error/.test(summary)) {
      throw new UsageError(`query ${query.name} cannot run with these parameter values: ${summary}; check --param and trajaudit.config.json${detail}`);
    }
    throw new InternalError(`query ${query.name} (${packagePath(query)}) failed: ${summary}${detail}`);
  }
}
