// The input ledger's rows for the files a load read: input_files (one per file) and
// input_problems (one per line that could not be read), written in the transaction of the rows;
// and the stat stamps of files found unchanged.
import fs from 'node:fs';
import { type Database, insertRows } from '../db/database.js';
import type { SourceFile } from '../discover/discover-inputs.js';
import { adapters } from './adapters/index.js';
import { HASH_BLOCK, headHash, tailHash } from './fingerprint.js';
import type { LineLedger } from './line-ledger.js';
import { statStamp } from './plan-file.js';
import { lineBaseOf, startOf, type Work } from './work.js';

export const FILE_COLUMNS = ['file_id', 'key', 'path', 'kind', 'session_id', 'bytes', 'lines', 'valid', 'blank', 'malformed', 'mtime',
  'head_hash', 'complete_bytes', 'complete_lines', 'tail_hash', 'min_ts', 'max_ts', 'loaded_at', 'stat_stamp'];
export const PROBLEM_COLUMNS = ['file_id', 'path', 'line', 'byte_offset', 'kind', 'reason', 'excerpt'];

export interface ReadFile {
  w: Work;
  fileId: number;
  ledger: LineLedger;
}

export const problemRows = (fileId: number, file: SourceFile, ledger: LineLedger) =>
  ledger.problems.map((p) => [fileId, file.relPath, p.line, p.byteOffset, p.kind, p.reason, p.excerpt]);

/**
 * The ledger rows of the files a transaction read, at its end: one query per table for the
 * files' time ranges, instead of one per file over the transaction's growing uncommitted rows.
 */
export async function writeLedgers(conn: Database, read: ReadFile[]): Promise<void> {
  const byTable = new Map<string, Map<number, LineLedger>>();
  for (const { w, fileId, ledger } of read) {
    if (ledger.timeRange || !w.adapter.timed || !w.adapter.appendable) continue;
    const table = w.adapter.tables[0];
    byTable.set(table, (byTable.get(table) ?? new Map()).set(fileId, ledger));
    ledger.timeRange = { min: null, max: null };
  }
  // As text: a timestamp past year 9999 does not survive a trip through a JavaScript Date.
  for (const [table, ledgers] of byTable) {
    const ranges = await conn.all(`SELECT file_id, min(ts)::VARCHAR AS min, max(ts)::VARCHAR AS max FROM ${table} WHERE file_id IN (${[...ledgers.keys()].join(', ')}) GROUP BY file_id`);
    for (const r of ranges.rows) ledgers.get(r.file_id as number)!.timeRange = { min: r.min as string | null, max: r.max as string | null };
  }
  await insertRows(conn, 'input_problems', PROBLEM_COLUMNS, read.flatMap(({ w, fileId, ledger }) => problemRows(fileId, w.file, ledger)));
  const files: unknown[][] = [];
  for (const { w, fileId, ledger } of read) files.push(await fileRow(conn, w, fileId, ledger, lineBaseOf(w), startOf(w)));
  await insertRows(conn, 'input_files', FILE_COLUMNS, files);
}

/** The stat stamps of unchanged files that the database lacks, so that the next load need not read their heads. */
export async function recordStamps(db: Database, stamps: [number, string][]): Promise<void> {
  for (let i = 0; i < stamps.length; i += 5000) {
    const rows = JSON.stringify(stamps.slice(i, i + 5000).map(([id, stamp]) => [String(id), stamp]));
    await db.run(`UPDATE input_files SET stat_stamp = s.r[2] FROM (SELECT unnest(json_transform($rows, '[["VARCHAR"]]')) AS r) s WHERE file_id = s.r[1]::BIGINT`, { rows });
  }
}

/** The input_files row; after an append the counts cover the whole file, recounted from the tables. */
export async function fileRow(db: Database, w: Work, fileId: number, ledger: LineLedger, lineBase: number, startOffset: number): Promise<unknown[]> {
  const [table] = w.adapter.tables;
  const lineFormat = w.file.kind !== 'task-output';
  let valid = ledger.valid;
  let malformed = ledger.malformed;
  const lines = lineBase + ledger.lines;
  if (lineBase > 0) {
    valid = (await db.all(`SELECT count(*) AS n FROM ${table} WHERE file_id = ${fileId}`)).rows[0].n as number;
    malformed = (await db.all(`SELECT count(*) AS n FROM input_problems WHERE file_id = ${fileId} AND kind <> 'duplicate-key'`)).rows[0].n as number;
  }
  let range = ledger.timeRange ?? { min: null, max: null };
  if (!ledger.timeRange && w.adapter.appendable && w.adapter.timed) {
    const r = (await db.all(`SELECT min(ts)::VARCHAR AS min, max(ts)::VARCHAR AS max FROM ${table} WHERE file_id = ${fileId}`)).rows[0];
    range = { min: r.min as string | null, max: r.max as string | null };
  }
  // The mtime of what was read: a file that grew while it was read, and not since, is unchanged
  // next time. One that grew after the read keeps the earlier mtime; its growth is read next time.
  const bytes = startOffset + ledger.bytes;
  const after = fs.statSync(w.file.absPath, { throwIfNoEntry: false });
  const mtime = after?.size === bytes ? after.mtime : w.stat.mtime;
  // Trusted next time only if nothing changed the file since it was planned, and that was long enough before.
  const stamp = after?.size === bytes && w.stat.stamp !== null && statStamp(after) === w.stat.stamp ? w.stat.stamp : null;
  const head = headHash(w.file.absPath, w.stat.size);
  // A small file read whole: the block before its end is the head block (one read, not two).
  const tail = ledger.completeBytes === w.stat.size && w.stat.size <= HASH_BLOCK ? head : tailHash(w.file.absPath, ledger.completeBytes);
  return [
    fileId, w.file.absPath, w.file.relPath, w.file.kind, w.file.sessionId, bytes,
    lineFormat ? lines : null, lineFormat ? valid : null, lineFormat ? lines - valid - malformed : null, lineFormat ? malformed : null,
    mtime.toISOString(), head, ledger.completeBytes, ledger.completeLines, tail, range.min, range.max, new Date().toISOString(), stamp,
  ];
}

/**
 * Before a file is read again, its rows go: from `fromLine` on for an append, all of them
 * otherwise, with its ledger entry (written again with the new rows).
 */
export async function clearRows(db: Database, work: Work[], fromLine: (w: Work) => number): Promise<void> {
  for (const w of work.filter((each) => each.previous)) {
    const id = w.previous!.file_id;
    const lineFilter = w.adapter.appendable ? ` AND line > ${fromLine(w)}` : '';
    for (const table of w.adapter.tables) await db.run(`DELETE FROM ${table} WHERE file_id = ${id}${lineFilter}`);
    // A file read as another kind before (reached under another name now) is reloaded whole.
    const before = adapters[w.previous!.kind].tables.filter((table) => !w.adapter.tables.includes(table));
    for (const table of before) await db.run(`DELETE FROM ${table} WHERE file_id = ${id}`);
    await db.run(`DELETE FROM input_problems WHERE file_id = ${id}${lineFilter}`);
    await db.run(`DELETE FROM input_files WHERE file_id = ${id}`);
  }
}
