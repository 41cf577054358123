// The derived rows of the appended tails a transaction stored, one statement per adapter: planning
// the derive statement costs more than deriving a few new lines, and an everyday load appends a few
// lines to each of many files.
import type { Adapter, AppendedTail } from './adapters/adapter.js';
import type { Database } from '../db/database.js';
import type { ReadFile } from './ledger-rows.js';
import { lineBaseOf } from './work.js';

export async function deriveTails(conn: Database, read: ReadFile[]): Promise<void> {
  const byAdapter = new Map<Adapter, AppendedTail[]>();
  for (const { w, fileId } of read) {
    const afterLine = lineBaseOf(w);
    if (afterLine === 0 || !w.adapter.deriveTails) continue;
    byAdapter.set(w.adapter, [...(byAdapter.get(w.adapter) ?? []), { fileId, afterLine }]);
  }
  for (const [adapter, tails] of byAdapter) await adapter.deriveTails!(conn, tails);
}
