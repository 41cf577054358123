// The staged way to read a file (its adapter's `read`), and a file read alone: the one reader
// refusals end at (refused.ts).
import type { Database } from '../db/database.js';
import { OutOfMemoryError } from '../errors.js';
import { deriveStored } from './derive-stored.js';
import { clearRows, writeLedgers } from './ledger-rows.js';
import type { LineLedger } from './line-ledger.js';
import type { LoadTally } from './load-tally.js';
import { Refused } from './refused.js';
import { RowBatch } from './row-batch.js';
import { lineBaseOf, startOf, type Work } from './work.js';

/** Reads one file (or its new tail) on `conn`: its ledger, and `write`, which stores its rows; or a refusal. */
export async function readStaged(conn: Database, w: Work, fileId: number, inTransaction: boolean): Promise<{ ledger: LineLedger; write: () => Promise<void> } | Refused> {
  const read = await w.adapter.read({ db: conn, fileId, file: w.file, startOffset: startOf(w), lineBase: lineBaseOf(w), batch: new RowBatch(), inTransaction });
  if (read instanceof Refused) return read;
  const write = async () => {
    await clearRows(conn, [w], lineBaseOf);
    await read.store();
  };
  return { ledger: read.ledger, write };
}

/**
 * A file the staged reader can only take outside a transaction: read on its own, then written
 * with its ledger entry in a transaction of its own.
 */
export async function loadAlone(conn: Database, w: Work, fileId: number, tally: LoadTally): Promise<void> {
  try {
    const read = await readStaged(conn, w, fileId, false);
    if (read instanceof Refused) throw new Error(`the staged reader refused ${w.file.relPath} outside a transaction: ${read.message}`);
    await conn.transaction(async () => {
      await read.write();
      const stored = [{ w, fileId, ledger: read.ledger }];
      await deriveStored(conn, stored);
      await writeLedgers(conn, stored);
    });
    tally.record(w, read.ledger);
  } catch (error) {
    throw error instanceof OutOfMemoryError ? error.whileReading(w.file.relPath) : error;
  }
}
