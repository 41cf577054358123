// Imported before @duckdb/node-api, whose jemalloc reads this variable once, when it loads.
// By default jemalloc keeps freed pages for ~10 s; during a load DuckDB frees and allocates
// hundreds of MB a second, so RSS stood 90 MB above what was in use (1 GiB home: 450 → 360 MB
// peak at no cost in wall time that we could measure apart from the noise). A value the user
// set is kept.
process.env.DUCKDB_JE_MALLOC_CONF ??= 'dirty_decay_ms:0,muzzy_decay_ms:0';
