-- name: discarded-output
-- description: Generated characters thrown away by stream restarts, per session (formats doc §3.4,
--   §3.5, §15 item 8). RetryTelemetry `retry.discardedChars` is the complete count;
--   StreamRestart.discarded_chars may be missing when the watchdog killed the generator during
--   backoff, so the difference is what restarts killed before they could report. Sessions with no
--   retry and no StreamRestart row are left out. Columns: session_id; retries (`retry` rows);
--   retry_discarded_chars, retry_discarded_thinking_chars (sums; NULL when no retry row carries the
--   key: OLD sessions, §14); restarts (StreamRestart rows, zero-loss restarts included);
--   restart_discarded_chars, restart_discarded_thinking_chars (sums, 0 without restarts);
--   unreported_chars (retry_discarded_chars − restart_discarded_chars). A count that is not an
--   integer (4.7, "4", true) counts as missing, as in the views (README "Tables"). since/until
--   filter both kinds of rows.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH picked AS (
  SELECT session_id, event, type, data FROM events
  WHERE ((event = 'RetryTelemetry' AND type = 'retry') OR event = 'StreamRestart')
    AND ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR session_id = $session)),
per_session AS (
  SELECT session_id,
    count(*) FILTER (WHERE event = 'RetryTelemetry') AS retries,
    sum(json_integer(data->'discardedChars')) FILTER (WHERE event = 'RetryTelemetry') AS retry_discarded_chars,
    sum(json_integer(data->'discardedThinkingChars')) FILTER (WHERE event = 'RetryTelemetry') AS retry_discarded_thinking_chars,
    count(*) FILTER (WHERE event = 'StreamRestart') AS restarts,
    coalesce(sum(json_integer(data->'discarded_chars')) FILTER (WHERE event = 'StreamRestart'), 0) AS restart_discarded_chars,
    coalesce(sum(json_integer(data->'discarded_thinking_chars')) FILTER (WHERE event = 'StreamRestart'), 0) AS restart_discarded_thinking_chars
  FROM picked GROUP BY session_id)
SELECT *, retry_discarded_chars - restart_discarded_chars AS unreported_chars
FROM per_session
ORDER BY session_id;
