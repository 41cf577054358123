// A load killed or stopped by an error leaves the database as its last commit did: whole files
// only, but not all of them. The next load completes it; until then every reader of the --db is
// told, in one line, that its answers miss what that load had not committed. The mark is a
// trajaudit_meta row, written with a new file's schema (schema.ts) and before a load's first file,
// and deleted when a load completes.
import type { Database } from './database.js';

const KEY = 'load_unfinished';

/** Before a load writes its first file: when it started. */
export async function markLoadUnfinished(db: Database): Promise<void> {
  await db.run(`INSERT OR REPLACE INTO trajaudit_meta VALUES ('${KEY}', $started)`, { started: new Date().toISOString() });
}

/** After a load has read every file: written only when a mark is there, so an unchanged re-run writes nothing. */
export async function clearLoadUnfinished(db: Database): Promise<void> {
  if ((await unfinishedLoadStart(db)) !== null) await db.run(`DELETE FROM trajaudit_meta WHERE key = '${KEY}'`);
}

/** When the unfinished load started (ISO text), or null; a database from before trajaudit_meta has none. */
export async function unfinishedLoadStart(db: Database): Promise<string | null> {
  const meta = await db.all(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'trajaudit_meta' AND database_name = current_database() AND schema_name = 'main'`);
  if (meta.rows[0].n === 0) return null;
  return ((await db.all(`SELECT max(value) AS v FROM trajaudit_meta WHERE key = '${KEY}'`)).rows[0].v as string | null) ?? null;
}
