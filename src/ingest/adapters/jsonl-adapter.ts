import type { SourceKind } from '../../discover/discover-inputs.js';
import { type StageShape, stageJsonl } from '../stage-jsonl.js';
import type { Adapter } from './adapter.js';

/**
 * A JSONL format: stage the lines (each valid one transformed into the struct `e` of `shape`), then one
 * INSERT … SELECT over `staged WHERE verdict = 'valid'` projects them into the table.
 */
export function jsonlAdapter(kind: SourceKind, table: string, shape: StageShape, projection: string, timed: boolean): Adapter {
  return {
    kind,
    tables: [table],
    appendable: true,
    timed,
    async read(target) {
      const range = { absPath: target.file.absPath, startOffset: target.startOffset, lineBase: target.lineBase, inTransaction: target.inTransaction };
      const ledger = await stageJsonl(target.db, range, shape);
      const store = async () => {
        if (ledger.valid > 0) {
          await target.db.run(`INSERT INTO ${table} ${projection}`, { file_id: target.fileId, session_id: target.file.sessionId });
        }
      };
      return { ledger, store };
    },
  };
}
