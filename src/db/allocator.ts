// DuckDB's allocator (jemalloc) reads DUCKDB_JE_MALLOC_CONF once, when the binding loads
// (duckdb-api.ts); a command picks its setting before that. A value the user set is kept.
// Figures: bench/README-figures.md.

/**
 * Queries and reports: freed pages are kept 10 ms, in one arena (the threads' pages reused across
 * threads). With jemalloc's own 10 s, `report` over a 5 GiB database peaked at 531–624 MB; with
 * this, 430–439 MB, for 5–15 % more time (session 14). Returning pages at once (decay 0) made the
 * report 3× slower: each page reused costs a page fault.
 */
export const QUERY_ALLOCATOR = 'narenas:1,dirty_decay_ms:10,muzzy_decay_ms:0';

/**
 * `load`: freed pages are kept 3 s, so that the next row group reuses them without a page fault;
 * the load's RSS guard (rss-guard.ts) has DuckDB hand them back only when the process nears its
 * ceiling. The 120 events.jsonl files of the 1 GiB home at 10 ms, handing back after every 16 MB
 * free: 13.5–15.0 s, 805–840 k page faults; at 3 s, guarded: 7.2 s in the bench (session 15).
 */
export const LOAD_ALLOCATOR = 'narenas:1,dirty_decay_ms:3000,muzzy_decay_ms:0';

/** Sets the allocator for this process unless the user set one; no effect once DuckDB has loaded. */
export function chooseAllocator(setting: string): void {
  process.env.DUCKDB_JE_MALLOC_CONF ??= setting;
}
