// DuckDB's allocator (jemalloc) reads DUCKDB_JE_MALLOC_CONF once, when the binding loads
// (duckdb-api.ts); a command picks its setting before that. A value the user set is kept.
// Figures: bench/design-figures.md.

/**
 * Queries and reports: freed pages are kept 1 s, in one arena (the threads' pages reused across
 * threads), so that a query's next hash table reuses them without a page fault. Kept 10 ms, a
 * report takes ~1.4× as long; returned at once (decay 0), several times as long.
 */
export const QUERY_ALLOCATOR = 'narenas:1,dirty_decay_ms:1000,muzzy_decay_ms:0';

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
