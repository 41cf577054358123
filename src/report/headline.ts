// Pure: the section data already collected → the few findings that matter this window, each
// naming the section that shows it. A section with no rows (or none this window) gives none.
import type { Row, Tabular } from '../render/types.js';
import type { Finding } from './types.js';

/** A section's query rows, whole (not cut to the shown table): the window's and the previous one's. */
export interface SectionRows {
  current: Tabular;
  previous: Tabular | null;
}

export interface HeadlineInput {
  /** By section id. */
  sections: Map<string, SectionRows>;
  /** errors.jsonl records by phase, columns phase, window, previous (Input coverage). */
  errorPhases: Tabular;
  /** False when the previous window holds no record at all: then no phase is called new. */
  previousHoldsData: boolean;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const rowsOf = (t: Tabular | null | undefined): Row[] => t?.rows ?? [];

function silentFailures(rows: SectionRows | undefined): Finding[] {
  const count = rowsOf(rows?.current).length;
  if (count === 0) return [];
  const before = rowsOf(rows?.previous).length;
  const text = `${plural(count, 'subagent', 'subagents')} failed silently: stopped with status error, no retry (previous window: ${before})`;
  return [{ kind: 'silent-failures', count, text, section: 'silent-failures' }];
}

function budgetExhausted(rows: SectionRows | undefined): Finding[] {
  const events = (t: Tabular | null | undefined) => rowsOf(t).filter((r) => r.type === 'retry_budget_exhausted').reduce((s, r) => s + num(r.events), 0);
  const count = events(rows?.current);
  if (count === 0) return [];
  const text = `retry budget exhausted ${plural(count, 'time', 'times')} (previous window: ${events(rows?.previous)})`;
  return [{ kind: 'retry-budget-exhausted', count, text, section: 'retries-by-type' }];
}

/** One row per subagent stream index with its verdict: every verdict but clean means its snapshots cannot be trusted. */
function snapshotVerdicts(rows: SectionRows | undefined): Finding[] {
  const notClean = (t: Tabular | null | undefined) => rowsOf(t).filter((r) => r.verdict !== 'clean');
  const now = notClean(rows?.current);
  if (now.length === 0) return [];
  const byVerdict = new Map<string, number>();
  for (const r of now) byVerdict.set(String(r.verdict ?? '(none)'), (byVerdict.get(String(r.verdict ?? '(none)')) ?? 0) + 1);
  const which = [...byVerdict].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)).map(([v, n]) => `${n} ${v}`).join(', ');
  const text = `${plural(now.length, 'subagent stream index', 'subagent stream indices')} not clean: ${which} (previous window: ${notClean(rows?.previous).length})`;
  return [{ kind: 'snapshot-verdicts', count: now.length, text, section: 'snapshot-attribution' }];
}

/** "New" is against the previous window (the report reads no further back), and only when it holds data. */
function newErrorPhases(phases: Tabular, previousHoldsData: boolean): Finding[] {
  if (!previousHoldsData) return [];
  const fresh = phases.rows.filter((r) => num(r.window) > 0 && num(r.previous) === 0);
  if (fresh.length === 0) return [];
  const which = fresh.map((r) => `${String(r.phase)} (${plural(num(r.window), 'record', 'records')})`).join(', ');
  const text = `${plural(fresh.length, 'errors.jsonl phase', 'errors.jsonl phases')} not in the previous window: ${which}`;
  return [{ kind: 'new-error-phases', count: fresh.length, text, section: 'input-coverage' }];
}

export function headline(input: HeadlineInput): Finding[] {
  return [
    ...silentFailures(input.sections.get('silent-failures')),
    ...budgetExhausted(input.sections.get('retries-by-type')),
    ...snapshotVerdicts(input.sections.get('snapshot-attribution')),
    ...newErrorPhases(input.errorPhases, input.previousHoldsData),
  ];
}
