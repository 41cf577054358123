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

/** Rows per read: one JSON text of all of them outgrew DuckDB's default memory at ~100,000 files. */
const CHUNK_ROWS = 5_000;

/**
 * Read as JSON texts of strings only (JSON.parse, not the exact parser JSON columns take), one per
 * CHUNK_ROWS files in file_id order: every load reads every row (one per file), and the driver
 * makes a native call and a buffer per string cell, which row by row costs an unchanged re-run
 * noticeably more. mtime comes as milliseconds since the epoch and leaves here as
 * `Date#toISOString()` writes it, as planFile compares it.
 */
export async function storedFiles(db: Database): Promise<Map<string, Stored>> {
  const files = new Map<string, Stored>();
  const number = (text: string | null) => (text === null ? null : Number(text));
  for (let after: string | null = null; ; ) {
    const table = await db.all(`SELECT to_json(coalesce(list([key, path, kind, session_id, file_id::VARCHAR, bytes::VARCHAR, epoch_ms(mtime)::VARCHAR, head_hash,
      complete_bytes::VARCHAR, complete_lines::VARCHAR, tail_hash, stat_stamp]), []))::VARCHAR AS rows, max(file_id)::VARCHAR AS last
      FROM (FROM input_files WHERE $after IS NULL OR file_id > $after::BIGINT ORDER BY file_id LIMIT ${CHUNK_ROWS})`, { after });
    const rows = JSON.parse(table.rows[0].rows as string) as (string | null)[][];
    for (const [key, path, kind, session_id, file_id, bytes, mtime, head_hash, complete_bytes, complete_lines, tail_hash, stat_stamp] of rows) {
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
        stat_stamp,
      });
    }
    if (rows.length < CHUNK_ROWS) return files;
    after = table.rows[0].last as string;
  }
}
