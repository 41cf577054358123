// Imported first by `load` (commands/load.ts), before @duckdb/node-api, whose jemalloc reads
// this variable once, when it loads. By default jemalloc keeps freed pages for ~10 s; during a
// load DuckDB frees and allocates hundreds of MB a second, so RSS stood ~90 MB above what was in
// use (1 GiB home: 450 → 360 MB peak at a 128 MB pool). Returning them at once (decay 0) cost a
// page fault for nearly every page reused: ~5 s of system time per GiB. Keeping them 10 ms, in
// one arena (the threads' pages are reused across threads), with DuckDB purging after each large
// bulk free (ingest.ts), loads the 1 GiB home in 6.1–6.2 s instead of 7.1 s and the 5 GiB home in
// 32–33.5 s instead of 35–37 s, at the same 5 GiB peak, 459–470 MB (measured, session 13; the work
// list's fs.Stats had to go first, ingest.ts). Figures: bench/README-figures.md, session 13.
// Not for the other commands: returning pages early costs query-heavy work system time (`report`
// on a 1 GiB database: 17.7–19.4 s against 16.5–17.6 s at decay 0, two runs each). A value the
// user set is kept.
process.env.DUCKDB_JE_MALLOC_CONF ??= 'narenas:1,dirty_decay_ms:10,muzzy_decay_ms:0';
