// The load's RSS guard, on a real DuckDB: above `high` DuckDB hands freed memory back after any
// free of 16 MB, below `low` after one of 512 MiB (its default) again; between the two it keeps
// what it was doing. The RSS is the test's own, so that each step is known.
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { SCHEMA } from '../../src/formats/registry.js';
import { startRssGuard } from '../../src/ingest/rss-guard.js';
import { tempDir } from '../helpers/run-cli.js';

const work = tempDir();
afterAll(() => work.cleanup());

const threshold = async (db: Database) =>
  (await db.all(`SELECT current_setting('allocator_bulk_deallocation_flush_threshold') AS t`)).rows[0].t;

/** Waits until the setting reads `want` (the guard sets it on a timer), or fails after 2 s. */
async function settles(db: Database, want: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 2000; await new Promise((r) => setTimeout(r, 10))) {
    if ((await threshold(db)) === want) return;
  }
  expect(await threshold(db)).toBe(want);
}

it('hands memory back above high, keeps it below low, and holds its state between the two', async () => {
  const db = await openDatabase(SCHEMA, path.join(work.dir, 'guard.duckdb'));
  const DEFAULT = String(await threshold(db));
  expect(DEFAULT).toBe('512.0 MiB');
  let rss = 300e6;
  const guard = await startRssGuard(db, { high: 420e6, low: 380e6, rss: () => rss, tickMs: 5 });
  try {
    await new Promise((r) => setTimeout(r, 50));
    expect(await threshold(db)).toBe(DEFAULT);
    rss = 421e6;
    await settles(db, '15.2 MiB');
    rss = 400e6; // between low and high: still handing back
    await new Promise((r) => setTimeout(r, 50));
    expect(await threshold(db)).toBe('15.2 MiB');
    rss = 379e6;
    await settles(db, DEFAULT);
    rss = 400e6; // between again: still keeping
    await new Promise((r) => setTimeout(r, 50));
    expect(await threshold(db)).toBe(DEFAULT);
    rss = 500e6;
    await settles(db, '15.2 MiB');
    expect(guard.tightened).toBe(2);
    await guard.stop();
    // Stopped: the RSS is no longer read.
    rss = 0;
    await new Promise((r) => setTimeout(r, 50));
    expect(await threshold(db)).toBe('15.2 MiB');
  } finally {
    await guard.stop();
    db.close();
  }
});
