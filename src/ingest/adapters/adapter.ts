import type { Database } from '../../db/database.js';
import type { SourceFile, SourceKind } from '../../discover/discover-inputs.js';
import type { LineLedger } from '../line-ledger.js';
import type { Refused } from '../refused.js';
import type { RowBatch } from '../row-batch.js';
import type { LineScan } from '../scan-lines.js';

export interface LoadTarget {
  db: Database;
  fileId: number;
  file: SourceFile;
  /** Where to start: 0/0 for a full load, the end of the last complete line for an append. */
  startOffset: number;
  lineBase: number;
  /** Reading inside an open transaction (see StageRange.inTransaction). */
  inTransaction: boolean;
  /** Where Node-parsed rows go; written in the same transaction as the file's ledger entry. */
  batch: RowBatch;
}

/** A whole file for Adapter.loadDirect. */
export interface DirectFile {
  fileId: number;
  file: SourceFile;
  /** The file's line scan, when the caller started it early (it overlaps the previous file's insert). */
  scan?: Promise<LineScan | Refused>;
}

/** One adapter per input format: reads a file into its table(s) and accounts for every line. */
export interface Adapter {
  kind: SourceKind;
  /** Tables holding this adapter's rows (file_id and line columns), cleared on reload. */
  tables: string[];
  /** Append-only JSONL whose growth can be read from the last complete line. */
  appendable: boolean;
  /** Rows carry an event time (ts), so a --since window can skip old files. */
  timed: boolean;
  /** Rows hold several copies of their line (a message and its tool result's copy): files load one at a time (load-settings.ts). */
  wideRows?: boolean;
  /** Keys of each record whose values are stored apart from its text: a line naming one twice is listed (duplicate-keys.ts). */
  envelopeKeys?: string[];
  /**
   * Reads the file and accounts for its lines, then returns `store`, which writes the rows
   * inside the file's transaction; or a refusal when the file can only be read outside any
   * transaction (refused.ts). The Node-only readers of small files never refuse.
   */
  read(target: LoadTarget): Promise<{ ledger: LineLedger; store: () => Promise<void> } | Refused>;
  /**
   * Reads whole files straight into their table, in one statement on `db` inside the load's
   * transaction: each file's ledger, or its refusal (refused.ts); a refusal after reading leaves
   * the transaction holding rows that must be rolled back.
   */
  loadDirect?: (db: Database, files: DirectFile[]) => Promise<(LineLedger | Refused)[]>;
  /**
   * Fills the derived table (typed fields read out of the stored rows) for what `read`'s store and
   * `loadDirect` wrote in a transaction: each file's lines after `afterLine` (0: all of them), in
   * one statement at the transaction's end (derive-stored.ts).
   */
  deriveStored?: (db: Database, files: StoredLines[]) => Promise<void>;
}

/** A file's lines a transaction stored: those after `afterLine` (an appended tail), or all. */
export interface StoredLines {
  fileId: number;
  afterLine: number;
}
