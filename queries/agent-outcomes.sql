-- name: agent-outcomes
-- description: How subagent runs ended, per source and agent_type: one row per (source, agent_type) of the runs that
--   started in the window (agent_runs). never_stopped counts runs with no stop on disk. Ordered by source, runs desc, agent_type.
-- columns: source, agent_type, runs, completed, error, killed, unknown, never_stopped, silent_failure
-- signals: subagent_outcomes
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
SELECT source, agent_type, count(*) AS runs,
  count(*) FILTER (status = 'completed') AS completed, count(*) FILTER (status = 'error') AS error,
  count(*) FILTER (status = 'killed') AS killed, count(*) FILTER (status = 'unknown') AS unknown,
  count(*) FILTER (status IS NULL) AS never_stopped, count(*) FILTER (silent_failure) AS silent_failure
FROM agent_runs
WHERE ($since IS NULL OR start_ts >= CAST($since AS TIMESTAMPTZ))
  AND ($until IS NULL OR start_ts < CAST($until AS TIMESTAMPTZ))
  AND ($session IS NULL OR session_id = $session)
GROUP BY ALL
ORDER BY source, runs DESC, agent_type NULLS LAST;
