-- name: subagent-starts
-- description: Subagent outcomes per agent_type: one row per SubagentStart agent_type, its runs by outcome and elapsed_ms
--   (quantile_disc 0.5: the lower median; max). Ordered by starts desc, then agent_type.
-- columns: agent_type, starts, completed, error, unknown, never_stopped, sessions, p50_elapsed_ms, max_elapsed_ms
-- signals: subagent_outcomes
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH paired AS (
  SELECT session_id, start_ts AS ts, agent_type, status, elapsed_ms, stop_line IS NOT NULL AS stopped
  FROM subagent_runs
  WHERE ($session IS NULL OR session_id = $session)
    AND ($since IS NULL OR start_ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR start_ts < CAST($until AS TIMESTAMPTZ))
)
SELECT agent_type,
  count(*) AS starts,
  count(*) FILTER (status = 'completed') AS completed,
  count(*) FILTER (status = 'error') AS error,
  count(*) FILTER (status = 'unknown') AS unknown,
  count(*) FILTER (NOT stopped) AS never_stopped,
  count(DISTINCT session_id) AS sessions,
  quantile_disc(elapsed_ms, 0.5) AS p50_elapsed_ms,
  max(elapsed_ms) AS max_elapsed_ms
FROM paired
GROUP BY agent_type
ORDER BY starts DESC, agent_type;
