// Small files parsed in Node (warn.log, summaries, heartbeats, task outputs, rewritten ledgers),
// in transactions of up to SMALL_BATCH files on the load's first connection.
import type { Database } from '../db/database.js';
import { OutOfMemoryError, readFailedError } from '../errors.js';
import { collectGarbage } from './collect-garbage.js';
import { clearRows, FILE_COLUMNS, fileRow, PROBLEM_COLUMNS, problemRows } from './ledger-rows.js';
import type { LineLedger } from './line-ledger.js';
import type { LoadTally } from './load-tally.js';
import { loadAlone } from './read-staged.js';
import { Refused } from './refused.js';
import { RowBatch } from './row-batch.js';
import { idsFor, type Work } from './work.js';

// A batch ends at SMALL_BATCH files or SMALL_BATCH_BYTES (a commit costs tens of ms); its rows
// reach DuckDB every FLUSH_EVERY files, so that each file's objects die young.
const SMALL_BATCH = 2000;
const SMALL_BATCH_BYTES = 4 * 1024 * 1024;
const FLUSH_EVERY = 200;
// V8's garbage from the small files is collected once its heap has grown by this (little else
// allocates in V8 during a load, so no collection comes by itself); less after the last batch,
// whose garbage would otherwise sit beside DuckDB's peak.
const GC_GROWTH_BYTES = 64 * 1024 * 1024;
const GC_LAST_GROWTH_BYTES = 32 * 1024 * 1024;

/** Loads `small` on `db`, batch by batch, until done or `stopped()` (another connection failed). */
export async function loadSmallFiles(db: Database, small: Work[], tally: LoadTally, stopped: () => boolean): Promise<void> {
  let collectedAt = 0;
  for (let batch: Work[] = [], bytes = 0, k = 0; k < small.length && !stopped(); k += 1) {
    batch.push(small[k]);
    bytes += small[k].stat.size;
    const last = k === small.length - 1;
    if (last || batch.length >= SMALL_BATCH || bytes >= SMALL_BATCH_BYTES) {
      await loadBatch(db, batch, tally);
      batch = [];
      bytes = 0;
      if (process.memoryUsage().heapUsed - collectedAt > (last ? GC_LAST_GROWTH_BYTES : GC_GROWTH_BYTES)) {
        collectGarbage();
        collectedAt = process.memoryUsage().heapUsed;
      }
    }
  }
}

/**
 * One batch in one transaction. A file the staged reader takes only outside a transaction (a
 * ledger with a CRLF line or invalid UTF-8) costs the transaction: the batch is read again
 * without it, and it is read alone after.
 */
async function loadBatch(conn: Database, files: Work[], tally: LoadTally): Promise<void> {
  const ids = await idsFor(conn, files);
  const alone = new Set<Work>();
  for (;;) {
    const members = files.filter((w) => !alone.has(w));
    const ledgers: LineLedger[] = [];
    let current: Work | undefined;
    try {
      await conn.transaction(async () => {
        await clearRows(conn, members, () => 0);
        const batch = new RowBatch();
        for (const [k, w] of members.entries()) {
          current = w;
          const fileId = ids.get(w)!;
          const read = await w.adapter.read({ db: conn, fileId, file: w.file, startOffset: 0, lineBase: 0, batch, inTransaction: true });
          if (read instanceof Refused) throw read;
          await read.store();
          batch.add('input_files', FILE_COLUMNS, [await fileRow(conn, w, fileId, read.ledger, 0, 0)]);
          batch.add('input_problems', PROBLEM_COLUMNS, problemRows(fileId, w.file, read.ledger));
          ledgers.push(read.ledger);
          if ((k + 1) % FLUSH_EVERY === 0) await batch.flush(conn);
        }
        await batch.flush(conn);
      });
      members.forEach((w, k) => tally.record(w, ledgers[k]));
      break;
    } catch (error) {
      if (error instanceof OutOfMemoryError && current) throw error.whileReading(current.file.relPath);
      const failed = current && readFailedError(error, current.file.relPath);
      if (failed) throw failed;
      if (!(error instanceof Refused) || !current) throw error;
      tally.debug(`staged read refused in a transaction: ${error.message}`);
      alone.add(current);
    }
  }
  for (const w of alone) await loadAlone(conn, w, ids.get(w)!, tally);
  tally.tick();
}
