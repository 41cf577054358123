-- name: retry-telemetry
-- description: RetryTelemetry events by data.type, split main loop (no agentId) vs subagents (with agentId): one row per
--   type present. Ordered by events desc, then type. Per-agent counts: retry-by-agent.
-- columns: type, events, main_loop, subagent, sessions, agents
-- signals: main_retries
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
SELECT type,
  count(*) AS events,
  count(*) FILTER (agent_id IS NULL) AS main_loop,
  count(*) FILTER (agent_id IS NOT NULL) AS subagent,
  count(DISTINCT session_id) AS sessions,
  count(DISTINCT agent_id) AS agents
FROM retry_telemetry_fields
WHERE ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
  AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
  AND ($session IS NULL OR session_id = $session)
GROUP BY type
ORDER BY events DESC, type;
