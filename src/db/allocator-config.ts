// Imported first by `load` (commands/load.ts), before @duckdb/node-api, whose jemalloc reads
// this variable once, when it loads. By default jemalloc keeps freed pages for ~10 s; during a
// load DuckDB frees and allocates hundreds of MB a second, so RSS stood ~90 MB above what was in
// use (1 GiB home: 450 → 360 MB peak at a 128 MB pool). Not for the other commands: returning
// pages at once costs query-heavy work system time (`report` on a 1 GiB database: 17.7–19.4 s
// against 16.5–17.6 s, two runs each). A value the user set is kept.
process.env.DUCKDB_JE_MALLOC_CONF ??= 'dirty_decay_ms:0,muzzy_decay_ms:0';
