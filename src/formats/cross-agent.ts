import type { SchemaPart } from '../db/schema.js';

// The cross-agent tables every agent format fills (docs/tables.md#cross-agent-tables): exact names
// and these columns, in this order; a format gives one SELECT per table, with these column names.
export const CROSS_AGENT_COLUMNS = {
  agent_sessions: ['source', 'session_id', 'project', 'first_ts', 'last_ts', 'version'],
  agent_runs: ['source', 'session_id', 'agent_id', 'agent_type', 'tool_use_id', 'start_ts', 'stop_ts', 'status', 'silent_failure', 'evidence'],
  api_attempts: ['source', 'session_id', 'agent_id', 'ts', 'kind', 'attempt', 'max_retries', 'delay_ms', 'http_status', 'error_class', 'connection_code', 'file', 'line'],
  tool_results: ['source', 'session_id', 'agent_id', 'ts', 'tool_name', 'tool_use_id', 'is_error', 'sibling_cascade', 'file', 'line'],
  compactions: ['source', 'session_id', 'agent_id', 'ts', 'trigger', 'pre_tokens', 'kind', 'file', 'line'],
} as const;

export type CrossAgentTable = keyof typeof CROSS_AGENT_COLUMNS;

/** The signals `signal_coverage` lists for every source: what a canned query or report section needs recorded. */
export const SIGNALS = ['main_retries', 'subagent_retries', 'subagent_outcomes', 'tool_errors', 'compactions', 'stream_phases', 'ghost_streams', 'task_outputs'] as const;
export type Signal = (typeof SIGNALS)[number];

export interface CrossAgentPart {
  /** The `source` value of its rows. */
  source: string;
  /** One SELECT per cross-agent table, giving its columns by name. */
  selects: Record<CrossAgentTable, string>;
  /** Whether its data records each signal, and a note on how (or why not). */
  signals: Record<Signal, { recorded: boolean; note: string }>;
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** The cross-agent views over every format's part, and signal_coverage. */
export function crossAgentSchema(parts: CrossAgentPart[]): SchemaPart {
  const views = Object.entries(CROSS_AGENT_COLUMNS).map(([table, columns]) => {
    const selects = parts.map((p) => `SELECT ${columns.join(', ')} FROM (${p.selects[table as CrossAgentTable]})`);
    return `CREATE OR REPLACE VIEW ${table} AS\n${selects.join('\nUNION ALL\n')};`;
  });
  const coverage = parts.flatMap((p) => SIGNALS.map((s) => `(${quote(p.source)}, ${quote(s)}, ${p.signals[s].recorded}, ${quote(p.signals[s].note)})`));
  views.push(`CREATE OR REPLACE VIEW signal_coverage AS SELECT * FROM (VALUES ${coverage.join(',\n  ')}) AS t(source, signal, recorded, note);`);
  return { tables: '', views: views.join('\n\n') };
}
