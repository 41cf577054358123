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

export function toTabular(rows: MergedRow[], format: 'table' | 'json' | 'md'): Tabular {
  let previous: number | null = null;
  const out = rows.map((r): Row => {
    const t = r.ts === null ? null : Date.parse(r.ts);
    const delta = t !== null && previous !== null ? t - previous : null;
    if (t !== null) previous = t;
    const summary = summarize(r);
    if (format === 'json') {
      return { ts: r.ts, delta_ms: delta, source: r.source, file: r.file, line: r.line, event: r.event, agent: r.agent, index: r.index, summary };
    }
    return {
      time: r.ts, delta_ms: delta, source: r.source, 'file:line': `${r.file}:${r.line}`, event: r.event,
      agent: r.agent, index: r.index, summary: format === 'table' ? tableSummary(summary) : summary,
    };
  });
  return { columns: format === 'json' ? JSON_COLUMNS : HUMAN_COLUMNS, rows: out };
}
