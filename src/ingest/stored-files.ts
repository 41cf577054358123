// What the database remembers of each file it holds, by key (the file's real path when it was read).
import type { Database } from '../db/database.js';
import type { SourceKind } from '../discover/discover-inputs.js';
import type { StoredFile } from './plan-file.js';

export type Stored = StoredFile & { path: string; kind: SourceKind; session_id: string | null };

export async function storedFiles(db: Database): Promise<Map<string, Stored>> {
  const table = await db.all(`SELECT key, path, kind, session_id, file_id, bytes, mtime, head_hash, complete_bytes, complete_lines, tail_hash FROM input_files`);
  return new Map(table.rows.map((row) => [row.key as string, row as unknown as Stored]));
}
