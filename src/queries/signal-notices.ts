// A query over a source that does not record what it needs says so, never a silent 0
// (signal_coverage; docs/tables.md#cross-agent-tables).
import type { Database } from '../db/database.js';
import { AGENT_FORMATS } from '../formats/registry.js';
import type { CannedQuery } from './load-queries.js';
import { loadQueries } from './load-queries.js';

const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The sources whose files the database holds: one EXISTS each, which stops at its first file (DISTINCT read every row). */
export async function sourcesPresent(db: Database): Promise<string[]> {
  const held = AGENT_FORMATS.map((f, i) => `EXISTS (FROM input_files WHERE kind IN (${f.kinds.map(sqlString).join(', ')})) AS "${i}"`);
  const row = (await db.all(`SELECT ${held.join(', ')}`)).rows[0];
  return AGENT_FORMATS.filter((_, i) => row[String(i)] === true).map((f) => f.name);
}

export interface SignalGap {
  source: string;
  signal: string;
  /** Why its rows are not in the answer. */
  text: string;
}

/** For each source held whose data the query cannot answer from: why (not recorded, or read by other queries). */
export async function signalGaps(db: Database, query: Pick<CannedQuery, 'name' | 'signals' | 'sources'>): Promise<SignalGap[]> {
  const present = await sourcesPresent(db);
  if (present.length === 0 || query.signals.length === 0) return [];
  const coverage = (await db.all(`SELECT source, signal, recorded, note FROM signal_coverage`)).rows;
  const gaps: SignalGap[] = [];
  for (const source of present) {
    for (const signal of query.signals) {
      const row = coverage.find((r) => r.source === source && r.signal === signal);
      if (row && row.recorded === false) {
        gaps.push({ source, signal, text: `${source} does not record ${signal.replace(/_/g, ' ')} (${row.note}): not recorded, so ${query.name} has no ${source} rows` });
      } else if (query.sources !== null && !query.sources.includes(source)) {
        const others = loadQueries().filter((q) => q.sources === null && q.signals.includes(signal)).map((q) => q.name);
        gaps.push({ source, signal, text: `${query.name} reads ${query.sources.join(', ')} data only${others.length > 0 ? `; ${source}'s ${signal.replace(/_/g, ' ')}: trajaudit query ${others.join(' / ')}` : ''}` });
      }
    }
  }
  return gaps;
}
