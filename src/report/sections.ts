// The report's sections: which canned query answers each, and how its rows are shown. The SQL
// lives only in queries/*.sql; the report binds since/until for the window and for the previous one.

/** Rows matched across the two windows by `keys`; `compare` columns get a previous value and a delta. */
export interface CompareShape {
  kind: 'compare';
  keys?: string[];
  /** Columns shown, in order (default: every column). */
  columns?: string[];
  /** Columns that get "(prev)" and "Δ" beside them (default: the first numeric column). */
  compare?: string[];
  /**
   * Numeric columns that are not counts (a median): blank for a key present only in the previous
   * window. Every other numeric column reads 0 there.
   */
  measures?: string[];
}

/** Rows counted by one column's value, window vs previous. */
export interface CountByShape {
  kind: 'count-by';
  column: string;
}

/** The window's rows (first `limit`), with the row count and column totals against the previous window. */
export interface ListShape {
  kind: 'list';
  columns?: string[];
  limit: number;
  /** Numeric columns summed in the notes (default: every numeric column). */
  totals?: string[];
}

export type SectionShape = CompareShape | CountByShape | ListShape;

export interface SectionSpec {
  id: string;
  title: string;
  query: string;
  about: string;
  shape: SectionShape;
  /**
   * A census of files on disk rather than of events: shown over every file loaded, with the
   * window's figures (by file mtime) in a note. Task outputs carry no event time.
   */
  census?: boolean;
}

export const sectionSpecs: SectionSpec[] = [
  {
    id: 'retries-by-type',
    title: 'Retries by type',
    query: 'retry-telemetry',
    about: 'RetryTelemetry events by type; main_loop rows carry no agentId, subagent rows do.',
    shape: { kind: 'compare', keys: ['type'], columns: ['type', 'events', 'main_loop', 'subagent', 'sessions', 'agents'], compare: ['events'] },
  },
  {
    id: 'retries-by-agent',
    title: 'Retries by agent',
    query: 'retry-by-agent',
    about: 'Which agent retried how often (most retries first).',
    shape: {
      kind: 'list', limit: 10,
      columns: ['session_id', 'agent_id', 'agent_type', 'retries', 'budget_exhausted', 'cooldown_waits', 'fallbacks', 'stop_status'],
      totals: ['retries', 'budget_exhausted', 'cooldown_waits', 'fallbacks'],
    },
  },
  {
    id: 'subagent-outcomes',
    title: 'Subagent outcomes',
    query: 'subagent-starts',
    about: 'Subagent starts by type and how they ended.',
    shape: {
      kind: 'compare', keys: ['agent_type'],
      columns: ['agent_type', 'starts', 'completed', 'error', 'unknown', 'never_stopped', 'p50_elapsed_ms'],
      compare: ['starts', 'error'],
      measures: ['p50_elapsed_ms'],
    },
  },
  {
    id: 'silent-failures',
    title: 'Silent subagent failures',
    query: 'silent-subagent-failures',
    about: 'Subagents that stopped with status error shortly after error evidence, with zero retries in between.',
    shape: { kind: 'list', limit: 20, columns: ['session_id', 'agent_id', 'agent_type', 'stop_ts', 'gap_ms', 'retries', 'error'], totals: [] },
  },
  {
    id: 'snapshot-attribution',
    title: 'Snapshot attribution verdicts',
    query: 'snapshot-attribution',
    about: 'Subagent stream indices by verdict: collision and split mean per-index snapshots cannot be trusted for that agent.',
    shape: { kind: 'count-by', column: 'verdict' },
  },
  {
    id: 'timeouts',
    title: 'Timeouts',
    query: 'timeouts',
    about: 'Which timeout layer fired, and whether it took effect.',
    shape: { kind: 'compare' },
  },
  {
    id: 'ghost-streams',
    title: 'Ghost streams',
    query: 'ghost-streams',
    about: 'Streams opened (HttpConnected) that never produced a recorded response (AfterModelRaw). A stream counts in the window it was opened in, also when its response came after the window edge.',
    shape: { kind: 'list', limit: 10, totals: ['http_connected', 'ghost_streams', 'main_ghosts', 'subagent_ghosts'] },
  },
  {
    id: 'api-errors',
    title: 'API errors, every agent',
    query: 'api-errors',
    about: 'Provider retries and terminal API errors of every source, by day and cause (http_status, error_class, connection_code).',
    shape: { kind: 'list', limit: 20, columns: ['day', 'source', 'kind', 'http_status', 'error_class', 'connection_code', 'attempts', 'sessions', 'subagent'], totals: ['attempts'] },
  },
  {
    id: 'agent-outcomes',
    title: 'Subagent outcomes, every agent',
    query: 'agent-outcomes',
    about: 'Subagent runs of every source by type and how they ended; a silent failure failed without the signal a caller acts on.',
    shape: {
      kind: 'compare', keys: ['source', 'agent_type'],
      columns: ['source', 'agent_type', 'runs', 'completed', 'error', 'killed', 'never_stopped', 'silent_failure'],
      compare: ['runs', 'error', 'silent_failure'],
    },
  },
  {
    id: 'tool-errors',
    title: 'Tool errors, every agent',
    query: 'tool-errors',
    about: 'Tool errors of every source by tool: root errors apart from sibling cascades (calls cancelled because a parallel one failed).',
    shape: {
      kind: 'compare', keys: ['source', 'tool_name'],
      columns: ['source', 'tool_name', 'results', 'errors', 'root_errors', 'sibling_cascades', 'error_rate'],
      compare: ['root_errors'],
      measures: ['error_rate'],
    },
  },
  {
    id: 'test-pollution',
    title: 'Test pollution of tasks/',
    query: 'test-pollution',
    about: 'tasks/*.output files by category; test-literal and empty files are not real subagent output.',
    shape: { kind: 'compare', keys: ['category'], columns: ['category', 'files', 'bytes', 'share'] },
    census: true,
  },
];
