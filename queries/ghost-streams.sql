-- name: ghost-streams
-- description: Streams that were opened (and billed) but never produced a recorded response: one row per session with an
--   HttpConnected or AfterModelRaw row, split main/subagent/side. Ordered by session_id.
-- columns: session_id, http_connected, after_model_raw, ghost_streams, main_http, main_ghosts, subagent_ghosts, side_ghosts
-- signals: ghost_streams
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
-- Pair first, window second: filtering each event by its own time split a stream at a window edge
-- (its HttpConnected in one window, its AfterModelRaw in the next) and gave negative ghosts. Each
-- AfterModelRaw is placed at the time of the main-loop HttpConnected it follows, at load
-- (ghost_stream_rows, with the HttpConnected rows).
WITH picked AS (
  SELECT session_id, event, idx FROM ghost_stream_rows
  WHERE ($session IS NULL OR session_id = $session)
    AND ($since IS NULL OR placed_ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR placed_ts < CAST($until AS TIMESTAMPTZ))),
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
