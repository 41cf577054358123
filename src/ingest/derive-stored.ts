// The derived rows (a format's typed fields) of the files a transaction stored, one statement per
// adapter at the transaction's end: planning the derive statement costs ~20 ms however little it
// reads, and a load stores many files per transaction (whole ones and appended tails alike).
import type { Adapter, StoredLines } from './adapters/adapter.js';
import type { Database } from '../db/database.js';
import type { ReadFile } from './ledger-rows.js';
import { lineBaseOf } from './work.js';

export async function deriveStored(conn: Database, read: ReadFile[]): Promise<void> {
  const byAdapter = new Map<Adapter, StoredLines[]>();
  for (const { w, fileId } of read) {
    if (!w.adapter.deriveStored) continue;
    byAdapter.set(w.adapter, [...(byAdapter.get(w.adapter) ?? []), { fileId, afterLine: lineBaseOf(w) }]);
  }
  for (const [adapter, files] of byAdapter) await adapter.deriveStored!(conn, files);
}
