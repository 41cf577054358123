// Holds a load's resident memory under a ceiling without paying for it below. DuckDB hands the
// pages its allocator keeps (LOAD_ALLOCATOR keeps freed pages 3 s, allocator.ts) back to the
// system after any free of 16 MB or more while the process's RSS is above `high`, and again only
// after a free of 512 MiB (DuckDB's own) once it is below `low`. Handing pages back costs a page
// fault for each page used again: doing it always makes a load much slower, never lets its peak
// grow by tens of MB. A setting that fails (DuckDB's connection broke, which fails the load's own
// statements too) stops the guard, nothing more.
import type { Database } from '../db/database.js';

/** The process's RSS is checked this often; a row group's write grows it by some tens of MB. */
const TICK_MS = 50;

export interface RssGuardOptions {
  /** RSS in bytes above which freed memory goes back at once. */
  high: number;
  /** RSS in bytes below which DuckDB keeps it again. */
  low: number;
  /** The process's resident set, in bytes (a test passes its own). */
  rss?: () => number;
  tickMs?: number;
}

export interface RssGuard {
  /** How many times the guard had freed memory handed back at once. */
  readonly tightened: number;
  /** Stops checking, once the setting in flight is set, and closes the guard's connection; again, nothing. */
  stop(): Promise<void>;
}

/** Watches the RSS on a connection of its own, beside the load's: DuckDB's setting is global. */
export async function startRssGuard(db: Database, options: RssGuardOptions): Promise<RssGuard> {
  const { high, low, rss = () => process.memoryUsage.rss(), tickMs = TICK_MS } = options;
  const conn = await db.connect();
  let tight = false;
  let tightened = 0;
  let pending: Promise<void> | null = null;
  let failed = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (pending !== null || failed) return;
    const now = rss();
    const want = now > high ? true : now < low ? false : tight;
    if (want === tight) return;
    tight = want;
    if (want) tightened += 1;
    const statement = want ? `SET allocator_bulk_deallocation_flush_threshold = '16MB'` : 'RESET allocator_bulk_deallocation_flush_threshold';
    pending = conn.run(statement).then(
      () => { pending = null; },
      () => { failed = true; pending = null; },
    );
  }, tickMs);
  timer.unref();
  return {
    get tightened() {
      return tightened;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await pending;
      conn.close();
    },
  };
}
