// Discovered files → tables, one transaction per file so an interrupted load leaves the
// database as it was before the file it was reading; the next run completes it.
import fs from 'node:fs';
import type { Progress } from '../command-result.js';
import type { Database } from '../db/database.js';
import type { DiscoveredInputs, SourceFile } from '../discover/discover-inputs.js';
import { adapters } from './adapters/index.js';
import { headHash, tailHash } from './fingerprint.js';
import type { LineLedger } from './line-ledger.js';
import { planFile, type StoredFile } from './plan-file.js';

export interface TimeWindow {
  since?: Date;
  until?: Date;
}

export interface IngestSummary {
  files: number;
  loaded: number;
  appended: number;
  reloaded: number;
  unchanged: number;
  outsideWindow: number;
  bytesRead: number;
  malformed: number;
}

// Hook events carry the hook-input time, a little before the write that set the file's mtime.
const MTIME_SLACK_MS = 10 * 60 * 1000;

async function storedFiles(db: Database): Promise<Map<string, StoredFile>> {
  const table = await db.all(`SELECT key, file_id, bytes, mtime, head_hash, complete_bytes, complete_lines, tail_hash FROM input_files`);
  return new Map(table.rows.map((row) => [row.key as string, row as unknown as StoredFile]));
}

async function clearRows(db: Database, file: SourceFile, fileId: number, fromLine: number): Promise<void> {
  for (const table of adapters[file.kind].tables) {
    await db.run(`DELETE FROM ${table} WHERE file_id = $id AND line > $from`, { id: fileId, from: fromLine });
  }
  await db.run(`DELETE FROM input_problems WHERE file_id = $id AND line > $from`, { id: fileId, from: fromLine });
}

async function recordFile(db: Database, file: SourceFile, fileId: number, stat: fs.Stats, ledger: LineLedger, lineBase: number, startOffset: number): Promise<void> {
  for (const p of ledger.problems) {
    await db.run(
      `INSERT INTO input_problems VALUES ($file_id, $path, $line, $byte_offset, $kind, $reason, $excerpt)`,
      { file_id: fileId, path: file.relPath, line: p.line, byte_offset: p.byteOffset, kind: p.kind, reason: p.reason, excerpt: p.excerpt },
    );
  }
  const [table] = adapters[file.kind].tables;
  const timed = adapters[file.kind].timed && file.kind !== 'heartbeat';
  const lineFormat = file.kind !== 'task-output';
  const lines = lineBase + ledger.lines;
  // After an append, the counts cover the whole file: the kept part (every valid JSONL line is
  // one row of its table) plus what this run read.
  const valid = lineBase === 0 ? `$valid` : `(SELECT count(*) FROM ${table} WHERE file_id = $id)`;
  const malformed = lineBase === 0 ? `$malformed` : `(SELECT count(*) FROM input_problems WHERE file_id = $id)`;
  await db.run(`DELETE FROM input_files WHERE file_id = $id`, { id: fileId });
  await db.run(
    `INSERT INTO input_files
     SELECT $id, $key, $path, $kind, $session_id, $bytes,
       ${lineFormat ? `$lines, ${valid}, $lines - ${valid} - ${malformed}, ${malformed}` : 'NULL, NULL, NULL, NULL'},
       $mtime::TIMESTAMPTZ, $head_hash, $complete_bytes, $complete_lines, $tail_hash,
       ${timed ? `(SELECT min(ts) FROM ${table} WHERE file_id = $id)` : 'NULL'},
       ${timed ? `(SELECT max(ts) FROM ${table} WHERE file_id = $id)` : 'NULL'}, now()`,
    {
      id: fileId, key: file.absPath, path: file.relPath, kind: file.kind, session_id: file.sessionId,
      bytes: startOffset + ledger.bytes, lines, ...(lineBase === 0 ? { valid: ledger.valid, malformed: ledger.malformed } : {}),
      mtime: stat.mtime.toISOString(), head_hash: headHash(file.absPath, stat.size),
      complete_bytes: ledger.completeBytes, complete_lines: ledger.completeLines,
      tail_hash: tailHash(file.absPath, ledger.completeBytes),
    },
  );
}

export async function ingest(db: Database, inputs: DiscoveredInputs, window: TimeWindow, progress: Progress): Promise<IngestSummary> {
  const summary: IngestSummary = { files: inputs.files.length, loaded: 0, appended: 0, reloaded: 0, unchanged: 0, outsideWindow: 0, bytesRead: 0, malformed: 0 };
  const stored = await storedFiles(db);
  const started = Date.now();
  for (const dir of inputs.sessionDirs) {
    await db.run(`INSERT OR REPLACE INTO session_dirs VALUES ($id, $path)`, { id: dir.sessionId, path: dir.relPath });
  }
  for (const skipped of inputs.skipped) {
    await db.run(`INSERT OR REPLACE INTO skipped_inputs VALUES ($key, $path, $reason)`, { key: skipped.absPath, path: skipped.relPath, reason: skipped.reason });
  }
  let done = 0;
  for (const file of inputs.files) {
    done += 1;
    const adapter = adapters[file.kind];
    const stat = fs.statSync(file.absPath);
    const previous = stored.get(file.absPath);
    if (window.since && adapter.timed && !previous && stat.mtime.getTime() < window.since.getTime() - MTIME_SLACK_MS) {
      summary.outsideWindow += 1;
      continue;
    }
    const plan = planFile(file.absPath, stat, previous, adapter.appendable);
    if (plan.action === 'unchanged') {
      summary.unchanged += 1;
      if (previous) await db.run(`UPDATE input_files SET path = $path WHERE file_id = $id AND path <> $path`, { id: previous.file_id, path: file.relPath });
      continue;
    }
    const fileId = previous?.file_id ?? ((await db.all(`SELECT nextval('file_ids') AS id`)).rows[0].id as number);
    const startOffset = plan.action === 'append' ? plan.startOffset : 0;
    const lineBase = plan.action === 'append' ? plan.lineBase : 0;
    const { ledger, store } = await adapter.read({ db, fileId, file, startOffset, lineBase });
    await db.transaction(async () => {
      if (previous) await clearRows(db, file, fileId, lineBase);
      await store();
      await recordFile(db, file, fileId, stat, ledger, lineBase, startOffset);
    });
    summary.bytesRead += ledger.bytes;
    summary.malformed += ledger.malformed;
    summary[plan.action === 'append' ? 'appended' : plan.action === 'reload' ? 'reloaded' : 'loaded'] += 1;
    const mib = summary.bytesRead / 1048576;
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    progress.update(`loading ${done}/${inputs.files.length} files, ${mib.toFixed(1)} MiB, ${(mib / seconds).toFixed(0)} MiB/s`);
  }
  progress.done();
  return summary;
}
