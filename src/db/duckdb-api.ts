// @duckdb/node-api, required rather than imported. It is CommonJS: an ESM import has Node lex its
// index and each of the ~200 modules it re-exports to list their named exports, which takes about
// as long as loading DuckDB itself, at the start of every command that opens a database.
import { createRequire } from 'node:module';
import type * as DuckDBApi from '@duckdb/node-api';
import { chooseAllocator, QUERY_ALLOCATOR } from './allocator.js';

const require = createRequire(import.meta.url);

// The allocator's setting is read once, as the binding loads: `load` chose its own before this
// (cli.ts); every other command takes the query setting (allocator.ts).
chooseAllocator(QUERY_ALLOCATOR);

export const duckdb = require('@duckdb/node-api') as typeof DuckDBApi;

// node-api decodes every VARCHAR with its shared `new TextDecoder()`, which drops a U+FEFF that
// starts a value: a cell, an event name or a problem's excerpt would lose it in every output. Its
// getString looks the decoder up on each call, so one that keeps it (ignoreBOM) takes its place.
const accessors = require('@duckdb/node-api/lib/vectors/dataAccessors.js') as { textDecoder: TextDecoder };
accessors.textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
