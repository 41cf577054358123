import type { Database } from '../../db/database.js';
import { readTime } from '../../db/read-time.js';
import type { SourceKind } from '../../discover/discover-inputs.js';
import { BIG_LINE_BYTES } from '../line-rules.js';
import { type DirectTarget, loadJsonlDirect } from '../load-jsonl-direct.js';
import { Refused } from '../refused.js';
import { stageJsonl } from '../stage-jsonl.js';
import type { Adapter, DirectFile, StoredLines } from './adapter.js';

/**
 * The envelope's `timestamp` as written when it is no time trajaudit reads (2026-02-30, hour 24:30,
 * epoch ms, `epoch`, no zone): `ts` is NULL then, and `data` does not hold the envelope, so this keeps the text.
 * Over a source with `timestamp` and its cast `ts`.
 */
export const TS_UNREAD = 'CASE WHEN ts IS NULL THEN timestamp END';

/** The envelope's `timestamp` as a time (`ts`), NULL when it is none (read-time.ts); TS_UNREAD keeps the text. */
export const TS_READ = readTime('timestamp');

export interface JsonlFormat {
  kind: SourceKind;
  table: string;
  /** The keys read from each record and their DuckDB types. */
  columns: Record<string, string>;
  /**
   * The INSERT body over `source`: a subquery with the row's `file_id` and `file_session_id` (its
   * file's; one source may hold several files), `line_no`, and one column per key of `columns`
   * (plus `line`, the record's text, when `keepText`).
   */
  projection: (source: string) => string;
  /**
   * The table's columns the projection fills, in its order: named in the INSERT, so that a column
   * added to the table in a DuckDB client holds NULL rather than shifting every value.
   */
  into: string[];
  /** Keep each record's whole text (small ledgers that store the record as it was written). */
  keepText: boolean;
  /** Rows carry an event time (see Adapter.timed). */
  timed: boolean;
  /**
   * The writer rewrites the whole file (an upsert ledger, docs/formats.md#usage-ledgerjsonl): a file that grew
   * may have changed anywhere, so any change reloads it. Default: the writer only appends.
   */
  rewritten?: boolean;
  /**
   * Tables filled from the main table's rows of the files a transaction read, at its end
   * (what a query would otherwise parse out of a stored JSON value on every run). `insert` is the
   * INSERT statements given a SQL condition on the main table's rows (the files, or a file's appended lines).
   */
  derived?: { tables: string[]; insert: (rows: string) => string };
  /** See Adapter.wideRows. */
  wideRows?: boolean;
  /** The keys a line must not name twice (duplicate-keys.ts): at most 8 of up to 18 bytes; default every key of `columns`. */
  envelopeKeys?: string[];
}

/**
 * A JSONL format. A whole file read inside a load's transaction goes the direct way (DuckDB's
 * read_json straight into the table, load-jsonl-direct.ts); appended tails, files the direct
 * path refuses and formats that keep the text are staged line by line first (stage-jsonl.ts).
 * Both feed the same projection.
 */
const directTarget = (target: DirectFile): DirectTarget => ({ absPath: target.file.absPath, fileId: target.fileId, sessionId: target.file.sessionId, scanning: target.scan });

export function jsonlAdapter(format: JsonlFormat): Adapter {
  const shape = JSON.stringify(format.columns);
  // A record kept as its text keeps every value of a key it names twice.
  const keys = format.keepText ? [] : (format.envelopeKeys ?? Object.keys(format.columns));
  const insert = `INSERT INTO ${format.table} (${format.into.join(', ')})`;
  const staged = (rows: string) =>
    `(SELECT $file_id AS file_id, $session_id AS file_session_id, line_no, ${format.keepText ? 'line, ' : ''}unnest(e) FROM staged WHERE verdict = 'valid' AND ${rows})`;
  // A tail's own lines only: the file's earlier lines have their rows.
  const deriveStored = async (db: Database, files: StoredLines[]) => {
    if (!format.derived || files.length === 0) return;
    const lines = files.map((f) => (f.afterLine === 0 ? `file_id = ${f.fileId}` : `(file_id = ${f.fileId} AND line > ${f.afterLine})`)).join(' OR ');
    await db.run(format.derived.insert(`file_id IN (${files.map((f) => f.fileId).join(', ')}) AND (${lines})`));
  };
  return {
    kind: format.kind,
    tables: [format.table, ...(format.derived?.tables ?? [])],
    appendable: !format.rewritten,
    wideRows: format.wideRows,
    timed: format.timed,
    envelopeKeys: keys,
    async read(target) {
      const range = { absPath: target.file.absPath, startOffset: target.startOffset, lineBase: target.lineBase, inTransaction: target.inTransaction };
      const ledger = await stageJsonl(target.db, range, { shape, keepValidText: format.keepText, keys });
      if (ledger instanceof Refused) return ledger;
      const store = async () => {
        if (ledger.valid > 0) {
          const params = { file_id: target.fileId, session_id: target.file.sessionId };
          await target.db.run(`${insert} ${format.projection(staged(`len <= ${BIG_LINE_BYTES}`))}`, params);
          // A long line alone: the projection parses its JSON again (line-rules.ts, BIG_LINE_BYTES).
          const big = await target.db.all(`SELECT line_no FROM staged WHERE verdict = 'valid' AND len > ${BIG_LINE_BYTES} ORDER BY line_no`);
          for (const row of big.rows) await target.db.run(`${insert} ${format.projection(staged(`line_no = ${row.line_no}`))}`, params);
        }
        // The scratch copy of the file: without --db, `sql` runs on this connection and would see it.
        await target.db.run('DROP TABLE IF EXISTS staged');
      };
      return { ledger, store };
    },
    deriveStored: format.derived ? deriveStored : undefined,
    loadDirect: format.keepText ? undefined : (db, targets) => loadJsonlDirect(db, format, targets.map(directTarget)),
  };
}
