-- name: retry-by-agent
-- description: Which subagent retried how often, zero retries included. One row per (session, agentId) that started or
--   has RetryTelemetry in the window; main-loop rows (no agentId) are left out. Ordered by retries desc, then session_id, agent_id.
-- columns: session_id, agent_id, task_id, agent_type, retries, budget_exhausted, cooldown_waits, fallbacks, streams_completed, stop_status
-- signals: subagent_retries
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH retry_rows AS (
  SELECT session_id, agent_id AS raw_agent_id, task_id, type
  FROM retry_telemetry_fields
  WHERE agent_id IS NOT NULL
    AND ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR session_id = $session)
),
-- Each task's Starts (agent_id, agent_type) and last Stop (agent_type, status), paired or not: stored
-- (subagent_task_rows).
with_telemetry AS (
  SELECT r.session_id,
    coalesce(t.agent_id, r.raw_agent_id) AS agent_id,
    r.task_id,
    coalesce(t.agent_type, t.stop_agent_type) AS agent_type,
    count(*) FILTER (r.type = 'retry') AS retries,
    count(*) FILTER (r.type = 'retry_budget_exhausted') AS budget_exhausted,
    count(*) FILTER (r.type = 'shared_cooldown_wait') AS cooldown_waits,
    count(*) FILTER (r.type = 'fallback') AS fallbacks,
    count(*) FILTER (r.type = 'stream_completed') AS streams_completed,
    any_value(t.stop_status) AS stop_status
  FROM retry_rows r
  LEFT JOIN subagent_task_rows t ON t.session_id = r.session_id AND t.task_id = r.task_id
  GROUP BY r.session_id, coalesce(t.agent_id, r.raw_agent_id), r.task_id, coalesce(t.agent_type, t.stop_agent_type)
),
-- Subagents that started in the window and wrote no RetryTelemetry there: the ones that died
-- before any retry are what a post-incident reader looks for.
started AS (
  SELECT session_id, min(agent_id) AS agent_id, task_id, min(agent_type) AS agent_type
  FROM subagent_runs
  WHERE agent_id IS NOT NULL
    AND ($since IS NULL OR start_ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR start_ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR session_id = $session)
  GROUP BY session_id, task_id, CASE WHEN task_id IS NULL THEN agent_id END
)
SELECT * FROM with_telemetry
UNION ALL
SELECT a.session_id, a.agent_id, a.task_id, a.agent_type, 0, 0, 0, 0, 0, t.stop_status
FROM started a
LEFT JOIN subagent_task_rows t ON t.session_id = a.session_id AND t.task_id = a.task_id
-- No row for its task; a run without a task id, no row for its agent (two joins on equal keys).
WHERE NOT EXISTS (SELECT 1 FROM with_telemetry w WHERE w.session_id = a.session_id AND w.task_id = a.task_id)
  AND NOT (a.task_id IS NULL AND EXISTS (SELECT 1 FROM with_telemetry w WHERE w.session_id = a.session_id AND w.agent_id = a.agent_id))
ORDER BY retries DESC, session_id, agent_id;
