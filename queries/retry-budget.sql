-- name: retry-budget
-- description: Did an agent stop retrying because time ran out or because retries did (formats doc
--   §3.4, §15 item 3)? One row per (session, agent) with any RetryTelemetry `retry` or
--   `retry_budget_exhausted` row; the main loop is the row with agent_id NULL. retry_budget_exhausted
--   is written when the wall-clock deadline cannot fit the next backoff plus 5 s. Columns: session_id;
--   agent_id (SubagentStart form when known, else the raw agentId); retries (`retry` rows);
--   backoff_ms (sum of their delayMs, up to the budget row if there is one); exhausted_ts, attempt,
--   delay_ms, remaining_ms (the last retry_budget_exhausted row: attempt it stopped at, the backoff it
--   wanted, the time it had left); needed_ms (delay_ms + 5000); deadline_ms (time from SubagentStart
--   to the budget row plus remaining_ms: the wall-clock budget remainingMs counts down; the Start is
--   the last one before the budget row, when the id was started more than once); backoff_share
--   (backoff_ms / deadline_ms); stop_status (SubagentStop status, NULL for the main loop or a
--   subagent that never stopped); stopped_by: `time` when a budget row exists, `attempts` when the
--   subagent stopped with status error without one (cap reached or error not retryable), else NULL
--   (it recovered or is still running). since/until filter the RetryTelemetry rows.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH rows AS (
  SELECT * FROM retry_telemetry
  WHERE type IN ('retry', 'retry_budget_exhausted')
    AND ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR session_id = $session)),
budget AS (
  SELECT session_id, agent_id, task_id, ts AS exhausted_ts, line, attempt, delay_ms, remaining_ms FROM rows
  WHERE type = 'retry_budget_exhausted'
  QUALIFY row_number() OVER (PARTITION BY session_id, agent_id ORDER BY ts DESC, line DESC) = 1),
agents AS (
  SELECT r.session_id, r.agent_id, any_value(r.task_id) AS task_id,
    count(*) FILTER (WHERE r.type = 'retry') AS retries,
    coalesce(sum(r.delay_ms) FILTER (WHERE r.type = 'retry' AND (b.exhausted_ts IS NULL OR r.ts <= b.exhausted_ts)), 0) AS backoff_ms
  FROM rows r LEFT JOIN budget b ON b.session_id = r.session_id AND b.agent_id IS NOT DISTINCT FROM r.agent_id
  GROUP BY r.session_id, r.agent_id),
-- The Start of the run the budget ran out in: the last one before the budget row (a subagent id
-- can be started again after it stopped).
budget_start AS (
  SELECT b.session_id, b.agent_id, max(r.start_ts) AS start_ts
  FROM budget b JOIN subagent_runs r ON r.session_id = b.session_id AND r.task_id = b.task_id
    AND (r.start_ts < b.exhausted_ts OR (r.start_ts = b.exhausted_ts AND r.start_line < b.line))
  GROUP BY b.session_id, b.agent_id),
lifecycle AS (
  SELECT session_id, task_id, min(agent_id) FILTER (WHERE kind = 'start') AS start_agent_id,
    arg_max(status, ts) FILTER (WHERE kind = 'stop') AS stop_status
  FROM subagent_lifecycle WHERE task_id IS NOT NULL GROUP BY session_id, task_id)
SELECT a.session_id, coalesce(l.start_agent_id, a.agent_id) AS agent_id, a.retries, a.backoff_ms,
  b.exhausted_ts, b.attempt, b.delay_ms, b.remaining_ms, b.delay_ms + 5000 AS needed_ms,
  date_diff('millisecond', bs.start_ts, b.exhausted_ts) + b.remaining_ms AS deadline_ms,
  round(a.backoff_ms / (date_diff('millisecond', bs.start_ts, b.exhausted_ts) + b.remaining_ms), 3) AS backoff_share,
  l.stop_status,
  CASE WHEN b.exhausted_ts IS NOT NULL THEN 'time' WHEN l.stop_status = 'error' THEN 'attempts' END AS stopped_by
FROM agents a
LEFT JOIN budget b ON b.session_id = a.session_id AND b.agent_id IS NOT DISTINCT FROM a.agent_id
LEFT JOIN budget_start bs ON bs.session_id = a.session_id AND bs.agent_id IS NOT DISTINCT FROM a.agent_id
LEFT JOIN lifecycle l ON l.session_id = a.session_id AND l.task_id = a.task_id
ORDER BY (b.exhausted_ts IS NULL), a.session_id, agent_id NULLS FIRST;
