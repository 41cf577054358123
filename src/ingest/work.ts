// One file a load reads this time, and what it does with it (plan-load.ts makes them).
import type { Database } from '../db/database.js';
import type { SourceFile } from '../discover/discover-inputs.js';
import type { Adapter } from './adapters/adapter.js';
import type { FilePlan, FileStat } from './plan-file.js';
import type { Stored } from './stored-files.js';

export interface Work {
  file: SourceFile;
  adapter: Adapter;
  /**
   * What is used of the file's stat, not the fs.Stats: each of those holds four Dates and a dozen
   * heap numbers, which add up over the tens of thousands of files of a large home.
   */
  stat: FileStat;
  previous?: Stored;
  plan: Exclude<FilePlan, { action: 'unchanged' }>;
}

/** Where the read starts: the end of the last complete line for an append, else 0. */
export const startOf = (w: Work) => (w.plan.action === 'append' ? w.plan.startOffset : 0);
/** The lines already stored, before those read now. */
export const lineBaseOf = (w: Work) => (w.plan.action === 'append' ? w.plan.lineBase : 0);

/**
 * Each file's id: its stored one, or a new one. New ids are taken in one statement outside any
 * transaction (a lone nextval() is a commit of its own, and a rolled-back one could be handed out twice).
 */
export async function idsFor(conn: Database, work: Work[]): Promise<Map<Work, number>> {
  const fresh = work.filter((w) => !w.previous);
  const ids = fresh.length ? (await conn.all(`SELECT nextval('file_ids') AS id FROM range(${fresh.length})`)).rows.map((r) => r.id as number) : [];
  return new Map(work.map((w) => [w, w.previous?.file_id ?? ids.shift()!]));
}
