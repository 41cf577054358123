-- name: discarded-output
-- description: Generated characters thrown away by stream restarts, per session: one row per session with a RetryTelemetry
--   retry or a StreamRestart row, retry counts against restart counts. Ordered by session_id.
-- columns: session_id, retries, retry_discarded_chars, retry_discarded_thinking_chars, restarts, restart_discarded_chars, restart_discarded_thinking_chars, unreported_chars
-- signals: stream_phases
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
-- Pair first, window second: filtering each row by its own time put a retry in one window and its
-- StreamRestart (ms later) in the next, which showed phantom unreported chars.
WITH scoped AS (
  SELECT session_id, event, type, discarded_chars, discarded_thinking_chars, ts, line
  FROM event_fields
  WHERE ((event = 'RetryTelemetry' AND type = 'retry') OR event = 'StreamRestart')
    AND ($session IS NULL OR session_id = $session)),
placed AS (
  SELECT session_id, event, type, discarded_chars, discarded_thinking_chars,
    CASE WHEN event = 'StreamRestart' AND ts IS NOT NULL
      AND lag(event) OVER chain = 'RetryTelemetry' THEN lag(ts) OVER chain ELSE ts END AS placed_ts
  FROM scoped
  WINDOW chain AS (PARTITION BY session_id ORDER BY ts, line)),
picked AS (
  SELECT session_id, event, type, discarded_chars, discarded_thinking_chars FROM placed
  WHERE ($since IS NULL OR placed_ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR placed_ts < CAST($until AS TIMESTAMPTZ))),
per_session AS (
  SELECT session_id,
    count(*) FILTER (WHERE event = 'RetryTelemetry') AS retries,
    sum(discarded_chars) FILTER (WHERE event = 'RetryTelemetry') AS retry_discarded_chars,
    sum(discarded_thinking_chars) FILTER (WHERE event = 'RetryTelemetry') AS retry_discarded_thinking_chars,
    count(*) FILTER (WHERE event = 'StreamRestart') AS restarts,
    coalesce(sum(discarded_chars) FILTER (WHERE event = 'StreamRestart'), 0) AS restart_discarded_chars,
    coalesce(sum(discarded_thinking_chars) FILTER (WHERE event = 'StreamRestart'), 0) AS restart_discarded_thinking_chars
  FROM picked GROUP BY session_id)
SELECT *, retry_discarded_chars - restart_discarded_chars AS unreported_chars
FROM per_session
ORDER BY session_id;
