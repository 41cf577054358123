// Discovered files → tables, in five steps: reconcile what the database holds with the files as
// they are (reconcile.ts), plan each file (plan-load.ts), record what discovery found
// (discovery-rows.ts), load the files with the load's settings (load-settings.ts): small ones
// in batches (load-small.ts), JSONL ones in commit groups (load-groups.ts), each with its ledger
// rows (ledger-rows.ts). An interrupted load (Ctrl-C, kill -9) leaves the database as it was
// before the group it was writing, never with part of a file; the next run completes it.
import type { Progress } from '../command-result.js';
import type { Database } from '../db/database.js';
import { remakeWholeTables } from '../db/schema.js';
import { clearLoadUnfinished, markLoadUnfinished, unfinishedLoadStart } from '../db/unfinished-load.js';
import { SCHEMA } from '../formats/registry.js';
import type { DiscoveredInputs, SourceKind } from '../discover/discover-inputs.js';
import { noSpaceError } from '../errors.js';
import { adapters } from './adapters/index.js';
import { recordDiscovery } from './discovery-rows.js';
import { recordStamps } from './ledger-rows.js';
import { GroupLoader } from './load-groups.js';
import { withLoadSettings } from './load-settings.js';
import { loadSmallFiles } from './load-small.js';
import { LoadTally } from './load-tally.js';
import { type IngestSummary, planLoad, type TimeWindow } from './plan-load.js';
import { reconcileStored } from './reconcile.js';
import { removedWhileRead } from './removed-while-read.js';
import type { Stored } from './stored-files.js';
import { idsFor, startOf, type Work } from './work.js';

export async function ingest(db: Database, discovered: DiscoveredInputs, window: TimeWindow, progress: Progress): Promise<IngestSummary> {
  // A load stopped before its end: what it wrote is not known, so the whole tables are made again whole.
  const resumed = db.path !== null && (await unfinishedLoadStart(db)) !== null;
  const { stored, sessionsMoved, dropped } = await reconcileStored(db, discovered);
  const { inputs, small, jsonl, summary, restamp } = planLoad(discovered, stored, window, db.path !== null);
  await recordDiscovery(db, inputs, stored, sessionsMoved);
  await recordStamps(db, restamp);
  const tally = new LoadTally(summary, progress, [...small, ...jsonl].reduce((sum, w) => sum + w.stat.size - startOf(w), 0));
  // The JSONL files' ids all at once: taken per group, each waited on the other connection's commit.
  const groups = new GroupLoader(jsonl, await idsFor(db, jsonl), tally);
  if (db.path !== null && small.length + jsonl.length > 0) await markLoadUnfinished(db);
  await withLoadSettings(db, jsonl.length, jsonl.some((w) => w.adapter.wideRows === true), async (connections) => {
    let failed = false; // a connection failed: the others stop at their next batch or group
    const outcomes = await Promise.allSettled(connections.map(async (conn) => {
      try {
        // The first connection reads the small files while the others start on the JSONL ones.
        if (conn === db) await loadSmallFiles(db, small, tally, () => failed);
        await groups.run(conn);
      } catch (error) {
        failed = true;
        groups.stop();
        throw error;
      }
    }));
    const rejected = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (rejected) throw removedWhileRead(rejected.reason, inputs);
  });
  // Tables made from all of a session's rows are made again when rows were written: for the
  // sessions this load wrote or dropped rows of; all of them into a new database, or after a load
  // stopped before this step (its mark was there). With the mark's removal, at once.
  // On one thread, as the load's inserts: on two, the windows over every session's rows need more memory.
  await db.run('SET threads = 1');
  try {
    if (db.path === null) {
      if (small.length + jsonl.length > 0) await remakeWholeTables(db, SCHEMA);
    } else if ((await unfinishedLoadStart(db)) !== null) {
      const sessions = wholeSessions(dropped, [...small, ...jsonl]);
      await db.transaction(async () => {
        await remakeWholeTables(db, SCHEMA, resumed || stored.size === 0 ? undefined : sessions);
        await clearLoadUnfinished(db);
      });
    }
  } finally {
    await db.run('RESET threads');
  }
  // Fold the write-ahead log into the file now, so the next open (an unchanged re-run, a query)
  // does not pay for this load's checkpoint.
  if (db.path !== null && summary.loaded + summary.appended + summary.reloaded > 0) {
    try {
      await db.run('CHECKPOINT');
    } catch (error) {
      // The load is committed (in the database's log); the next open folds the log in.
      throw noSpaceError(error, `: this load is committed, in ${db.path}.wal; DuckDB folds it into ${db.path} when it next opens the file with room to write`) ?? error;
    }
  }
  progress.done();
  return summary;
}

/** Too many sessions to name in one statement: the whole tables are made again whole. */
const MAX_SESSIONS = 1000;

/**
 * The sessions whose rows of the whole tables' sources a load wrote or dropped (a file read again
 * under another session dir, both), or undefined for all of them: a file of those sources outside
 * a session dir, or more than MAX_SESSIONS.
 */
function wholeSessions(dropped: Stored[], written: Work[]): string[] | undefined {
  const feeds = (kind: SourceKind) => adapters[kind].tables.some((t) => SCHEMA.wholeSources.has(t));
  const sessions = [
    ...dropped.filter((f) => feeds(f.kind)).map((f) => f.session_id),
    ...written.filter((w) => feeds(w.file.kind)).flatMap((w) => [w.file.sessionId, ...(w.previous ? [w.previous.session_id] : [])]),
  ];
  const named = new Set(sessions);
  return named.has(null) || named.size > MAX_SESSIONS ? undefined : [...(named as Set<string>)];
}
