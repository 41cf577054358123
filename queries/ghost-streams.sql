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
-- (its HttpConnected in one window, its AfterModelRaw in the next) and gave negative ghosts.
-- A row is placed at its own time or at an earlier row's of its session: only sessions with a row in
-- the window can have one placed there, and the pairing is within a session.
WITH sessions_in_window AS (
  SELECT DISTINCT session_id FROM event_fields
  WHERE event IN ('HttpConnected', 'AfterModelRaw') AND ($session IS NULL OR session_id = $session)
    AND ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ)) AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))),
scoped AS (
  SELECT session_id, event, idx, ts, line FROM event_fields
  WHERE event IN ('HttpConnected', 'AfterModelRaw')
    AND session_id IN (SELECT session_id FROM sessions_in_window)),
placed AS (
  SELECT session_id, event, idx,
    CASE WHEN event = 'AfterModelRaw' AND ts IS NOT NULL
      AND lag(event) OVER main_chain = 'HttpConnected' THEN lag(ts) OVER main_chain ELSE ts END AS placed_ts
  FROM scoped
  -- AfterModelRaw is main-loop only, so it pairs among main-loop HttpConnected rows (index < 10000).
  WINDOW main_chain AS (PARTITION BY session_id, (event = 'AfterModelRaw' OR coalesce(idx < 10000, false))
    ORDER BY ts, line)),
picked AS (
  SELECT session_id, event, idx FROM placed
  WHERE ($since IS NULL OR placed_ts >= CAST($since AS TIMESTAMPTZ))
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
