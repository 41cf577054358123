import type { Database, Params } from '../db/database.js';
import { UsageError } from '../errors.js';
import type { Tabular } from '../render/types.js';
import { type CannedQuery, loadQueries } from './load-queries.js';

export function findQuery(name: string): CannedQuery {
  const all = loadQueries();
  const query = all.find((q) => q.name === name);
  if (!query) throw new UsageError(`unknown query ${JSON.stringify(name)}; the canned queries are: ${all.map((q) => q.name).join(', ')}`);
  return query;
}

export async function runQuery(db: Database, query: CannedQuery, params: Params): Promise<Tabular> {
  return db.all(query.sql, params);
}
