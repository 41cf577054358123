import type { CrossAgentPart } from '../cross-agent.js';

// sid-code's rows of the cross-agent tables (docs/tables.md#cross-agent-tables), from its own views.

/** Its retries' and terminal errors' agent: the SubagentStart's agent_id of the same task, else RetryTelemetry's agentId. */
const API_ATTEMPTS = `
SELECT 'sid-code' AS source, r.session_id, coalesce(a.agent_id, r.agent_id) AS agent_id, r.ts,
  CASE r.type WHEN 'retry' THEN 'retry' ELSE 'terminal' END AS kind, r.attempt, NULL::BIGINT AS max_retries, r.delay_ms,
  TRY_CAST(nullif(regexp_extract(r.error, '(?:^|[^0-9])([1-5][0-9][0-9])(?:[^0-9]|$)', 1), '') AS BIGINT) AS http_status,
  coalesce(r.reopen_reason, 'unknown') AS error_class,
  nullif(regexp_extract(r.error, '(ECONN[A-Z]+|ETIMEDOUT|ENOTFOUND|EPIPE|EAI_AGAIN|UND_ERR_[A-Z_]+)', 1), '') AS connection_code,
  f.path AS file, r.line
FROM retry_telemetry_fields r
LEFT JOIN input_files f USING (file_id)
LEFT JOIN (SELECT session_id, task_id, any_value(agent_id) AS agent_id FROM subagent_lifecycle_fields
           WHERE kind = 'start' AND task_id IS NOT NULL GROUP BY ALL) a
  ON a.session_id = r.session_id AND a.task_id = r.task_id
WHERE r.type IN ('retry', 'retry_budget_exhausted')`;

/** A run whose SubagentStop says error with no retry between its start and stop (silent-subagent-failures without its time gap). */
const AGENT_RUNS = `
SELECT 'sid-code' AS source, s.session_id, s.agent_id, s.agent_type, NULL::VARCHAR AS tool_use_id, s.start_ts, s.stop_ts,
  CASE WHEN s.stop_line IS NULL THEN NULL ELSE coalesce(s.status, 'unknown') END AS status,
  coalesce(s.status = 'error' AND retries = 0, false) AS silent_failure,
  CASE WHEN s.stop_line IS NULL THEN 'no SubagentStop'
    ELSE 'SubagentStop status ' || coalesce(s.status, 'null') || ', ' || retries || ' retr' || CASE WHEN retries = 1 THEN 'y' ELSE 'ies' END || ' in the run' END AS evidence
FROM (SELECT s.*, (SELECT count(*) FROM retry_telemetry_fields r
        WHERE r.type = 'retry' AND r.session_id = s.session_id AND r.task_id = s.task_id
          AND r.ts BETWEEN s.start_ts AND coalesce(s.stop_ts, r.ts)) AS retries
      FROM subagent_runs s) s`;

export const sidCodeCrossAgent: CrossAgentPart = {
  source: 'sid-code',
  selects: {
    agent_sessions: `SELECT 'sid-code' AS source, s.session_id, c.project, s.first_event_ts AS first_ts, s.last_event_ts AS last_ts, u.app_version AS version
      FROM sessions s
      LEFT JOIN (SELECT session_id, arg_min(cwd, ts) AS project FROM events WHERE cwd IS NOT NULL GROUP BY ALL) c USING (session_id)
      LEFT JOIN usage_ledger u USING (session_id)`,
    agent_runs: AGENT_RUNS,
    api_attempts: API_ATTEMPTS,
    tool_results: `SELECT 'sid-code' AS source, x.session_id, NULL::VARCHAR AS agent_id, x.ts, x.tool_name,
        x.tool_use_id, x.event = 'PostToolUseFailure' OR coalesce(x.is_error, false) AS is_error,
        false AS sibling_cascade, f.path AS file, x.line
      FROM event_fields x LEFT JOIN input_files f USING (file_id)
      WHERE x.event IN ('PostToolUse', 'PostToolUseFailure')`,
    compactions: `SELECT 'sid-code' AS source, x.session_id, NULL::VARCHAR AS agent_id, x.ts, x.trigger,
        NULL::BIGINT AS pre_tokens, 'compact' AS kind, f.path AS file, x.line
      FROM event_fields x LEFT JOIN input_files f USING (file_id)
      WHERE x.event = 'PreCompact'`,
  },
  signals: {
    main_retries: { recorded: true, note: 'RetryTelemetry retry rows without agentId' },
    subagent_retries: { recorded: true, note: 'RetryTelemetry retry rows with agentId' },
    subagent_outcomes: { recorded: true, note: 'SubagentStart/SubagentStop pairs' },
    tool_errors: { recorded: true, note: 'PostToolUse/PostToolUseFailure, not attributed to an agent; no sibling cascades' },
    compactions: { recorded: true, note: 'PreCompact hooks (trigger only, no token counts)' },
    stream_phases: { recorded: true, note: 'StreamPhase events' },
    ghost_streams: { recorded: true, note: 'StreamPhase, TimeoutFired and heartbeat snapshots' },
    task_outputs: { recorded: true, note: 'tasks/*.output files' },
  },
};
