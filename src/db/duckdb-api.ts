// @duckdb/node-api, required rather than imported. It is CommonJS: an ESM import has Node lex its
// index and each of the ~200 modules it re-exports to list their named exports, which took about
// as long as loading DuckDB itself (`node -e` import against require: 1.10–1.46 s against
// 0.53–1.04 s on a busy machine), at the start of every command that opens a database.
import { createRequire } from 'node:module';
import type * as DuckDBApi from '@duckdb/node-api';

const require = createRequire(import.meta.url);

// DuckDB's jemalloc reads this once, when the binding loads (below). By default jemalloc keeps
// freed pages for ~10 s, so RSS stood far above what was in use: `report` over a 5 GiB database
// peaked at 531–624 MB, a heavy query at 396–490 MB (target: < 500 MB at 5 GB input). Keeping
// them 10 ms, in one arena (the threads' pages are reused across threads): `report` 430–439 MB,
// the queries 348–373 MB, for 5–15 % more time (measured, session 14). During a load DuckDB also
// purges after each large bulk free (ingest.ts): the 1 GiB home loads in 6.1–6.2 s instead of
// 7.1 s at decay 0, and the 5 GiB home peaks at 459–470 MB (session 13). Returning pages at once
// (decay 0) costs a page fault for nearly every page reused: ~5 s of system time per GiB loaded,
// and a report 3× slower. Figures: bench/README-figures.md. A value the user set is kept.
process.env.DUCKDB_JE_MALLOC_CONF ??= 'narenas:1,dirty_decay_ms:10,muzzy_decay_ms:0';

export const duckdb = require('@duckdb/node-api') as typeof DuckDBApi;

// node-api decodes every VARCHAR with its shared `new TextDecoder()`, which drops a U+FEFF that
// starts a value: a cell, an event name or a problem's excerpt lost it in every output. Its
// getString looks the decoder up on each call, so one that keeps it (ignoreBOM) takes its place.
const accessors = require('@duckdb/node-api/lib/vectors/dataAccessors.js') as { textDecoder: TextDecoder };
accessors.textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
