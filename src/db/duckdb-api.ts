// @duckdb/node-api, required rather than imported. It is CommonJS: an ESM import has Node lex its
// index and each of the ~200 modules it re-exports to list their named exports, which took about
// as long as loading DuckDB itself (`node -e` import against require: 1.10–1.46 s against
// 0.53–1.04 s on a busy machine), at the start of every command that opens a database.
import { createRequire } from 'node:module';
import type * as DuckDBApi from '@duckdb/node-api';

export const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDBApi;
