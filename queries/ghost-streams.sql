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
--   since/until place each stream by the time it was opened, so that a stream crossing a window edge
--   counts whole on one side: an AfterModelRaw is paired with the main-loop HttpConnected right
--   before it in the session (by time, then line) and counts in that HttpConnected's window; one with
--   no HttpConnected before it (or only another AfterModelRaw) counts at its own time. Pairing is
--   done over all rows, before the window. Rows with no readable time fall in no window.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
-- Pair first, window second: filtering each event by its own time split a stream at a window edge
-- (its HttpConnected in one window, its AfterModelRaw in the next) and gave negative ghosts.
WITH scoped AS (
  SELECT session_id, event, idx, ts, line FROM events
  WHERE event IN ('HttpConnected', 'AfterModelRaw')
    AND ($session IS NULL OR session_id = $session)),
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
