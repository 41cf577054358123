import type { SourceKind } from '../../discover/discover-inputs.js';
import { stageJsonl } from '../stage-jsonl.js';
import type { Adapter } from './adapter.js';

/** A JSONL format: stage the lines, then one INSERT … SELECT projects the valid ones. */
export function jsonlAdapter(kind: SourceKind, table: string, projection: string, timed: boolean): Adapter {
  return {
    kind,
    tables: [table],
    appendable: true,
    timed,
    async read(target) {
      const ledger = await stageJsonl(target.db, { absPath: target.file.absPath, startOffset: target.startOffset, lineBase: target.lineBase });
      const store = async () => {
        if (ledger.valid > 0) {
          await target.db.run(`INSERT INTO ${table} ${projection}`, { file_id: target.fileId, session_id: target.file.sessionId });
        }
      };
      return { ledger, store };
    },
  };
}
