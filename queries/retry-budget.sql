-- name: retry-budget
-- description: Did an agent stop retrying because time ran out or because retries did? One row per run of an agent with a
--   retry or retry_budget_exhausted row; budget rows first, then session_id, agent_id, start_ts.
-- columns: session_id, agent_id, start_ts, retries, backoff_ms, exhausted_ts, attempt, delay_ms, remaining_ms, needed_ms, deadline_ms, backoff_share, stop_status, stopped_by
-- signals: main_retries
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH rows AS (
  SELECT session_id, file_id, line, ts, type, agent_id, task_id, attempt, delay_ms, remaining_ms FROM retry_telemetry_fields
  WHERE type IN ('retry', 'retry_budget_exhausted')
    AND ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR session_id = $session)),
-- Each row's run: the last Start of its task id before it. Summing over every run of a restarted id
-- set the backoff of several runs against the deadline of one (backoff_share above 1).
-- The run each row belongs to: the latest of its agent's runs that started before it (by time, then line).
run_of_row AS (
  SELECT r.file_id, r.line, u.start_ts, u.start_line, u.status
  FROM rows r JOIN subagent_runs u ON u.session_id = r.session_id AND u.task_id = r.task_id
  WHERE u.start_ts <= r.ts AND (u.start_ts < r.ts OR u.start_line < r.line)
  QUALIFY row_number() OVER (PARTITION BY r.file_id, r.line ORDER BY u.start_ts DESC, u.start_line DESC NULLS LAST) = 1),
in_run AS (
  SELECT r.*, u.start_ts, u.start_line, u.status AS run_status FROM rows r LEFT JOIN run_of_row u USING (file_id, line)),
budget AS (
  SELECT session_id, agent_id, start_ts, start_line, ts AS exhausted_ts, attempt, delay_ms, remaining_ms FROM in_run
  WHERE type = 'retry_budget_exhausted'
  QUALIFY row_number() OVER (PARTITION BY session_id, agent_id, start_ts, start_line ORDER BY ts DESC, line DESC) = 1),
runs AS (
  SELECT r.session_id, r.agent_id, any_value(r.task_id) AS task_id, r.start_ts, r.start_line, any_value(r.run_status) AS run_status,
    count(*) FILTER (WHERE r.type = 'retry') AS retries,
    -- No retry: no backoff (0). Retries whose delays are all unknown: unknown (NULL), not 0 ms.
    CASE WHEN count(*) FILTER (WHERE r.type = 'retry' AND (b.exhausted_ts IS NULL OR r.ts <= b.exhausted_ts)) = 0 THEN 0
      ELSE sum(r.delay_ms) FILTER (WHERE r.type = 'retry' AND (b.exhausted_ts IS NULL OR r.ts <= b.exhausted_ts)) END AS backoff_ms
  FROM in_run r LEFT JOIN budget b ON b.session_id = r.session_id AND b.agent_id IS NOT DISTINCT FROM r.agent_id
    AND b.start_ts IS NOT DISTINCT FROM r.start_ts AND b.start_line IS NOT DISTINCT FROM r.start_line
  GROUP BY r.session_id, r.agent_id, r.start_ts, r.start_line),
lifecycle AS (
  SELECT session_id, task_id, min(agent_id) FILTER (WHERE kind = 'start') AS start_agent_id,
    arg_max(status, ts) FILTER (WHERE kind = 'stop') AS stop_status
  FROM subagent_lifecycle_fields WHERE task_id IS NOT NULL GROUP BY session_id, task_id),
joined AS (
  SELECT a.session_id, coalesce(l.start_agent_id, a.agent_id) AS agent_id, a.start_ts, a.start_line, a.retries, a.backoff_ms,
    b.exhausted_ts, b.attempt, b.delay_ms, b.remaining_ms, b.delay_ms + 5000 AS needed_ms,
    date_diff('millisecond', a.start_ts, b.exhausted_ts) + b.remaining_ms AS deadline_ms,
    CASE WHEN a.start_ts IS NULL THEN l.stop_status ELSE a.run_status END AS stop_status
  FROM runs a
  LEFT JOIN budget b ON b.session_id = a.session_id AND b.agent_id IS NOT DISTINCT FROM a.agent_id
    AND b.start_ts IS NOT DISTINCT FROM a.start_ts AND b.start_line IS NOT DISTINCT FROM a.start_line
  LEFT JOIN lifecycle l ON l.session_id = a.session_id AND l.task_id = a.task_id)
SELECT session_id, agent_id, start_ts, retries, backoff_ms, exhausted_ts, attempt, delay_ms, remaining_ms, needed_ms,
  deadline_ms, round(backoff_ms / deadline_ms, 3) AS backoff_share, stop_status,
  CASE WHEN exhausted_ts IS NOT NULL THEN 'time' WHEN stop_status = 'error' THEN 'attempts' END AS stopped_by
FROM joined
ORDER BY (exhausted_ts IS NULL), session_id, agent_id NULLS FIRST, start_ts NULLS FIRST, start_line NULLS FIRST;
