import type { Row, Tabular } from '../render/types.js';
import { summarize, tableSummary } from './summarize.js';
import type { MergedRow } from './timeline-rows.js';

/**
 * JSON row keys (stable contract):
 *   ts        ISO-8601 UTC with ms, or null when the line had no readable time
 *   delta_ms  ms since the previous row shown (null on the first row)
 *   source    "events" | "warn" | "errors" | "transcript"
 *   file      path relative to the root the user named (input_files.path)
 *   line      1-based line in that file (first line of a multi-line warn.log record)
 *   event     event name, "Error" for errors.jsonl, "[LEVEL] CATEGORY" for warn.log
 *   agent     normalized subagent id (subagent-<type>-<taskId> when its SubagentStart is known), or null
 *   index     data.index (stream / pair / loop index; docs/formats.md#index-namespaces), or null
 *   summary   the payload on one line (never shortened in JSON or md; table: tableSummary)
 */
export const JSON_COLUMNS = ['ts', 'delta_ms', 'source', 'file', 'line', 'event', 'agent', 'index', 'summary'];
const HUMAN_COLUMNS = ['time', 'delta_ms', 'source', 'file:line', 'event', 'agent', 'index', 'summary'];

/**
 * The table's columns, narrower than md's where every row shares a part (one session's files are in
 * one dir, an incident is within a day): `date` and `dir` columns hold that part on every row (a
 * row without a time too), which the table says once under it (render/constant-columns.ts), and
 * `time` and `file:line` the rest.
 */
function tableParts(rows: MergedRow[]): { date: string | null; dir: string | null } {
  // One row is not folded (constantColumns): its time and file:line stay whole.
  if (rows.length < 2) return { date: null, dir: null };
  const dated = rows.filter((r) => r.ts !== null).map((r) => r.ts!.slice(0, 10));
  const dirOf = (file: string) => file.slice(0, file.lastIndexOf('/') + 1);
  const dir = dirOf(rows[0].file);
  return {
    date: dated.length > 0 && dated.every((d) => d === dated[0]) ? dated[0] : null,
    dir: dir !== '' && rows.every((r) => dirOf(r.file) === dir) ? dir : null,
  };
}

const TABLE_PARTS = ['date', 'dir'] as const;

export function toTabular(rows: MergedRow[], format: 'table' | 'json' | 'md'): Tabular {
  const parts = format === 'table' ? tableParts(rows) : { date: null, dir: null };
  let previous: number | null = null;
  const out = rows.map((r): Row => {
    const t = r.ts === null ? null : Date.parse(r.ts);
    const delta = t !== null && previous !== null ? t - previous : null;
    if (t !== null) previous = t;
    const summary = summarize(r);
    if (format === 'json') {
      return { ts: r.ts, delta_ms: delta, source: r.source, file: r.file, line: r.line, event: r.event, agent: r.agent, index: r.index, summary };
    }
    const time = parts.date !== null && r.ts !== null ? r.ts.slice(11) : r.ts;
    const file = parts.dir === null ? r.file : r.file.slice(parts.dir.length);
    return {
      ...(parts.date === null ? {} : { date: parts.date }), ...(parts.dir === null ? {} : { dir: parts.dir }),
      time, delta_ms: delta, source: r.source, 'file:line': `${file}:${r.line}`, event: r.event,
      agent: r.agent, index: r.index, summary: format === 'table' ? tableSummary(summary) : summary,
    };
  });
  const shown = TABLE_PARTS.filter((c) => parts[c] !== null);
  return { columns: format === 'json' ? JSON_COLUMNS : [...shown, ...HUMAN_COLUMNS], rows: out };
}
