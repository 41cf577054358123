-- name: ghost-streams
-- description: Streams that were opened (and billed) but never produced a recorded response: per
--   session, HttpConnected (one per HTTP response past the status check, every call chain) minus
--   AfterModelRaw (main-loop calls only) (formats doc §3.5, §15 item 9). Split by the stream index
--   namespace (§2): main loop index < 10000, subagent 10000 ≤ index < 900000, side calls ≥ 900000.
--   Subagents and side calls never fire AfterModelRaw, so each of their HttpConnected rows counts as a
--   ghost. On OLD sessions a subagent's provider rows sit at the main loop's index (§4), so they count
--   as main. Sessions with neither event are left out. Columns: session_id; http_connected;
--   after_model_raw; ghost_streams (http_connected − after_model_raw); main_http (HttpConnected with
--   index < 10000); main_ghosts (main_http − after_model_raw); subagent_ghosts; side_ghosts.
--   since/until filter both events.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH picked AS (
  SELECT session_id, event, idx FROM events
  WHERE event IN ('HttpConnected', 'AfterModelRaw')
    AND ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR session_id = $session)),
per_session AS (
  SELECT session_id,
    count(*) FILTER (WHERE event = 'HttpConnected') AS http_connected,
    count(*) FILTER (WHERE event = 'AfterModelRaw') AS after_model_raw,
    count(*) FILTER (WHERE event = 'HttpConnected' AND idx < 10000) AS main_http,
    count(*) FILTER (WHERE event = 'HttpConnected' AND idx >= 10000 AND idx < 900000) AS subagent_ghosts,
    count(*) FILTER (WHERE event = 'HttpConnected' AND idx >= 900000) AS side_ghosts
  FROM picked GROUP BY session_id)
SELECT session_id, http_connected, after_model_raw, http_connected - after_model_raw AS ghost_streams,
  main_http, main_http - after_model_raw AS main_ghosts, subagent_ghosts, side_ghosts
FROM per_session
ORDER BY session_id;
