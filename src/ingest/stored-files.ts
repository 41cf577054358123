// What the database remembers of each file it holds, by key (the file's real path when it was read).
import type { Database } from '../db/database.js';
import type { SourceKind } from '../discover/discover-inputs.js';
import type { StoredFile } from './plan-file.js';

export type Stored = StoredFile & { key: string; path: string; kind: SourceKind; session_id: string | null };

/** A time trajaudit stored as toISOString wrote it; one beyond a JavaScript Date (a database edited by hand) as text that matches no file's mtime. */
function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms` : date.toISOString();
}

/** Rows per read: one JSON text of all of them took more than DuckDB's default memory at ~100,000 files. */
const CHUNK_IDS = 50_000;

/**
 * Read as JSON texts of strings only (JSON.parse, not the exact parser JSON columns take), one per
 * range of file ids: every load reads every row (one per file), and the driver makes a native call
 * and a buffer per string cell, which row by row costs an unchanged re-run noticeably more. mtime
 * comes as milliseconds since the epoch and leaves here as `Date#toISOString()` writes it, as
 * planFile compares it.
 */
export async function storedFiles(db: Database): Promise<Map<string, Stored>> {
  const span = (await db.all(`SELECT min(file_id) AS lo, max(file_id) AS hi FROM input_files`)).rows[0];
  const files = new Map<string, Stored>();
  if (span.lo === null) return files;
  const number = (text: string | null) => (text === null ? null : Number(text));
  for (let lo = Number(span.lo); lo <= Number(span.hi); lo += CHUNK_IDS) {
    const table = await db.all(`SELECT to_json(coalesce(list([key, path, kind, session_id, file_id::VARCHAR, bytes::VARCHAR, epoch_ms(mtime)::VARCHAR, head_hash,
      complete_bytes::VARCHAR, complete_lines::VARCHAR, tail_hash]), []))::VARCHAR AS rows FROM input_files WHERE file_id >= $lo AND file_id < $hi`, { lo, hi: lo + CHUNK_IDS });
    const rows = JSON.parse(table.rows[0].rows as string) as (string | null)[][];
    for (const [key, path, kind, session_id, file_id, bytes, mtime, head_hash, complete_bytes, complete_lines, tail_hash] of rows) {
      files.set(key!, {
        key: key!,
        path: path!,
        kind: kind as SourceKind,
        session_id,
        file_id: number(file_id)!,
        bytes: number(bytes)!,
        mtime: mtime === null ? null : isoTime(Number(mtime)),
        head_hash: head_hash!,
        complete_bytes: number(complete_bytes)!,
        complete_lines: number(complete_lines)!,
        tail_hash: tail_hash!,
      });
    }
  }
  return files;
}
