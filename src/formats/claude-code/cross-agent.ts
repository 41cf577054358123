import type { CrossAgentPart } from '../cross-agent.js';

// Claude Code's rows of the cross-agent tables (docs/tables.md#cross-agent-tables).

/** A retry's class from its status, or its connection error (the terminal line names its own). */
const RETRY_CLASS = `CASE
  WHEN http_status = 429 THEN 'rate_limit' WHEN http_status = 529 THEN 'overloaded' WHEN http_status >= 500 THEN 'server_error'
  WHEN http_status IN (401, 403) THEN 'authentication_failed' WHEN http_status = 408 THEN 'timeout'
  WHEN http_status >= 400 THEN 'invalid_request'
  WHEN connection_code IS NOT NULL OR (error->>'message') ILIKE '%connection%' THEN 'connection'
  ELSE 'unknown' END`;

const API_ATTEMPTS = `
SELECT 'claude-code' AS source, session_id, thread_agent_id AS agent_id, ts, kind, attempt, max_retries, delay_ms, http_status,
  CASE WHEN kind = 'terminal' THEN coalesce(error->>'$', 'unknown') ELSE ${RETRY_CLASS} END AS error_class,
  connection_code, file_path AS file, line
FROM (SELECT *, CASE WHEN type = 'system' THEN 'retry' ELSE 'terminal' END AS kind,
    CASE WHEN type = 'system' THEN retry_attempt END AS attempt,
    CAST(round(retry_in_ms) AS BIGINT) AS delay_ms,
    CASE WHEN type = 'system' THEN json_integer(error->'status') ELSE api_error_status END AS http_status,
    coalesce(error->>'$.connection.code', error->>'$.cause.code',
      nullif(regexp_extract(error->>'$.formatted', '\\(([A-Za-z_]+)\\)', 1), '')) AS connection_code
  FROM claude_records
  WHERE (type = 'system' AND subtype = 'api_error') OR (type = 'assistant' AND is_api_error_message))`;

export const claudeCodeCrossAgent: CrossAgentPart = {
  source: 'claude-code',
  selects: {
    agent_sessions: `SELECT 'claude-code' AS source, session_id, arg_min(cwd, ts) FILTER (cwd IS NOT NULL) AS project,
        min(ts) AS first_ts, max(ts) AS last_ts, arg_max(version, ts) FILTER (version IS NOT NULL) AS version
      FROM claude_lines WHERE session_id IS NOT NULL GROUP BY session_id`,
    agent_runs: `SELECT 'claude-code' AS source, session_id, agent_id, agent_type, tool_use_id, start_ts, stop_ts, status, silent_failure, evidence
      FROM claude_agent_runs`,
    api_attempts: API_ATTEMPTS,
    tool_results: `SELECT 'claude-code' AS source, r.session_id, r.thread_agent_id AS agent_id, r.ts, c.name AS tool_name, r.tool_use_id,
        coalesce(r.is_error, false) AS is_error, coalesce(r.sibling_cascade, false) AS sibling_cascade, r.file_path AS file, r.line
      FROM claude_tool_results r
      LEFT JOIN (SELECT session_id, tool_use_id, any_value(name) AS name FROM claude_tool_calls GROUP BY ALL) c USING (session_id, tool_use_id)`,
    compactions: `SELECT 'claude-code' AS source, session_id, thread_agent_id AS agent_id, ts, compact_trigger AS trigger,
        compact_pre_tokens AS pre_tokens, compaction AS kind, file_path AS file, line
      FROM claude_records WHERE type = 'system' AND subtype IN ('compact_boundary', 'microcompact_boundary')`,
  },
  signals: {
    main_retries: { recorded: true, note: 'system api_error records, one per retry; the terminal failure as an isApiErrorMessage line' },
    subagent_retries: { recorded: false, note: 'sidechains never get api_error records: only a subagent\'s terminal API error is recorded' },
    subagent_outcomes: { recorded: true, note: 'Task/Agent calls, their tool_result, sidechain and task-notification' },
    tool_errors: { recorded: true, note: 'tool_result is_error, sibling cascades told apart' },
    compactions: { recorded: true, note: 'compact_boundary and microcompact_boundary records' },
    stream_phases: { recorded: false, note: 'stream phases go only to debug logs' },
    ghost_streams: { recorded: false, note: 'a stalled stream shows only as a gap in time' },
    task_outputs: { recorded: false, note: 'Claude Code keeps no task-output directory trajaudit reads' },
  },
};
