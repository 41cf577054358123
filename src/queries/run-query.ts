import type { Database, Params } from '../db/database.js';
import { InternalError, UsageError } from '../errors.js';
import type { Tabular } from '../render/types.js';
import type { CannedQuery } from './load-queries.js';

export async function runQuery(db: Database, query: CannedQuery, params: Params): Promise<Tabular> {
  try {
    return await db.all(query.sql, params);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    // Values are validated by type before binding; what DuckDB can still refuse is their content
    // (an RE2 pattern it cannot compile, a value out of range): the user's to fix.
    if (/^(Invalid Input|Conversion|Out of Range) Error/.test(message)) {
      throw new UsageError(`query ${query.name} cannot run with these parameter values: ${message}; check --param and trajaudit.config.json`);
    }
    throw new InternalError(`query ${query.name} failed: ${message}`);
  }
}
