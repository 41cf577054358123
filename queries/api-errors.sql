-- name: api-errors
-- description: Provider retries and terminal API errors, by day, source, kind and cause: one row per (day, source, kind,
--   http_status, error_class, connection_code), from api_attempts. Ordered by day, source, kind, then attempts desc.
-- columns: day, source, kind, http_status, error_class, connection_code, attempts, sessions, main_thread, subagent, max_attempt
-- signals: main_retries
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
SELECT CAST(ts AS DATE) AS day, source, kind, http_status, error_class, connection_code,
  count(*) AS attempts, count(DISTINCT session_id) AS sessions,
  count(*) FILTER (agent_id IS NULL) AS main_thread, count(*) FILTER (agent_id IS NOT NULL) AS subagent,
  max(attempt) AS max_attempt
FROM api_attempts
WHERE ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
  AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
  AND ($session IS NULL OR session_id = $session)
GROUP BY ALL
ORDER BY day, source, kind, attempts DESC, http_status NULLS LAST, error_class, connection_code NULLS LAST;
