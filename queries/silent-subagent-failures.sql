-- name: silent-subagent-failures
-- description: Subagents that stopped with status error without retrying: one row per such SubagentStop whose last error
--   evidence came at most max_gap_ms before it. Ordered by stop_ts, session_id, agent_id.
-- columns: session_id, agent_id, agent_type, task_id, start_ts, stop_ts, gap_ms, retries, error
-- signals: subagent_outcomes
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
-- param: max_gap_ms BIGINT = 1000
WITH runs AS (
  SELECT s.session_id, s.task_id, s.stop_ts, s.stop_line, s.start_ts, s.start_line, s.agent_id, s.agent_type,
    (SELECT count(*) FROM retry_telemetry_fields r
     WHERE r.type = 'retry' AND r.session_id = s.session_id AND r.task_id = s.task_id
       AND r.ts BETWEEN s.start_ts AND s.stop_ts) AS retries
  FROM subagent_runs s
  WHERE s.status = 'error' AND s.task_id IS NOT NULL
    AND ($since IS NULL OR s.stop_ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR s.stop_ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR s.session_id = $session)),
-- Strictly inside the run by (time, line): at an equal time the line says which was written first.
errors_in_run AS (
  SELECT s.session_id, s.task_id, s.stop_ts, s.stop_line, s.start_ts, s.start_line, p.task_id AS row_task_id,
    p.agent_id AS row_agent_id, p."index", p.ts, p.line, coalesce(p.error, 'HTTP ' || p.http_status) AS error
  FROM runs s JOIN (
    SELECT session_id, ts, line, idx AS "index", agent_id, nullif(regexp_extract(agent_id, '-([a-z][0-9a-z]{8})$', 1), '') AS task_id, error, http_status
    FROM stream_evidence_fields WHERE event = 'StreamPhase' AND phase = 'error') p
    ON p.session_id = s.session_id
   AND (p.ts > s.start_ts OR (p.ts = s.start_ts AND p.line > s.start_line))
   AND (p.ts < s.stop_ts OR (p.ts = s.stop_ts AND p.line < s.stop_line))),
-- The agent-tagged stream rows of the runs' sessions, with the task their agent_id names.
tagged_in_sessions AS (
  SELECT e.session_id, e.idx, e.ts, e.line, regexp_extract(e.agent_id, '-([a-z][0-9a-z]{8})$', 1) AS task_id
  FROM stream_evidence_fields e
  WHERE e.event IN ('StreamPhase', 'TimeoutFired') AND e.agent_id IS NOT NULL
    -- Only what the provider-row evidence below reads: sessions with an untagged error in a run.
    AND e.session_id IN (SELECT session_id FROM errors_in_run WHERE row_agent_id IS NULL)),
evidence AS (
  SELECT session_id, task_id, stop_ts, 1 AS rank, ts, error, line
  FROM errors_in_run WHERE row_task_id = task_id
  UNION ALL
  SELECT s.session_id, s.task_id, s.stop_ts, 2, s.ts, s.error, s.line
  FROM errors_in_run s
  WHERE s.row_agent_id IS NULL
    AND s."index" IN (SELECT e.idx FROM tagged_in_sessions e
                      WHERE e.session_id = s.session_id AND e.task_id = s.task_id
                        AND (e.ts > s.start_ts OR (e.ts = s.start_ts AND e.line > s.start_line))
                        AND (e.ts < s.stop_ts OR (e.ts = s.stop_ts AND e.line < s.stop_line)))
  UNION ALL
  SELECT s.session_id, s.task_id, s.stop_ts, 3, w.ts, '[' || w.category || '] ' || w.message, w.line
  FROM runs s JOIN warn_lines w
    ON w.session_id = s.session_id AND w.level = 'ERROR' AND w.ts BETWEEN s.start_ts AND s.stop_ts),
last_evidence AS (
  SELECT * FROM evidence
  QUALIFY row_number() OVER (PARTITION BY session_id, task_id, stop_ts ORDER BY rank, ts DESC, line DESC) = 1)
SELECT s.session_id, s.agent_id, s.agent_type, s.task_id, s.start_ts, s.stop_ts,
  date_diff('millisecond', e.ts, s.stop_ts) AS gap_ms, s.retries, e.error
FROM runs s JOIN last_evidence e USING (session_id, task_id, stop_ts)
WHERE s.retries = 0 AND date_diff('millisecond', e.ts, s.stop_ts) <= $max_gap_ms
ORDER BY s.stop_ts, s.session_id, s.agent_id;
