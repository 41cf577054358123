// DuckDB's allocator (jemalloc) reads DUCKDB_JE_MALLOC_CONF once, when the binding loads
// (duckdb-api.ts); a command picks its setting before that. A value the user set is kept.
// Figures: bench/design-figures.md.

/**
 * Queries and reports: freed pages are kept 10 ms, in one arena (the threads' pages reused across
 * threads): a report peaks well below jemalloc's own 10 s, for a little more time. Returning pages
 * at once (decay 0) makes a report several times slower: each page reused costs a page fault.
 */
export const QUERY_ALLOCATOR = 'narenas:1,dirty_decay_ms:10,muzzy_decay_ms:0';

/**
 * `load`: freed pages are kept 3 s, so that the next row group reuses them without a page fault;
 * the load's RSS guard (rss-guard.ts) has DuckDB hand them back only when the process nears its
 * ceiling. Kept 10 ms and handed back after every large free, a load spends much of its time in
 * page faults.
 */
export const LOAD_ALLOCATOR = 'narenas:1,dirty_decay_ms:3000,muzzy_decay_ms:0';

/** Sets the allocator for this process unless the user set one; no effect once DuckDB has loaded. */
export function chooseAllocator(setting: string): void {
  process.env.DUCKDB_JE_MALLOC_CONF ??= setting;
}
