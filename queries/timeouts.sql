-- name: timeouts
-- description: Which timeout layer fired, and did it take effect? One row per layer seen in TimeoutFired or TimeoutIneffective,
--   plus watchdog_kill when there is a WatchdogKill. Ordered by fired desc, then layer.
-- columns: layer, fired, main_loop, subagent, side, agent_stream, ineffective, watchdog_kills, sessions
-- signals: stream_phases
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH picked AS (
  SELECT session_id, event, idx, CASE WHEN event = 'WatchdogKill' THEN 'watchdog_kill' ELSE layer END AS layer
  FROM event_fields
  WHERE event IN ('TimeoutFired', 'TimeoutIneffective', 'WatchdogKill')
    AND ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR session_id = $session))
SELECT layer,
  count(*) FILTER (WHERE event = 'TimeoutFired') AS fired,
  count(*) FILTER (WHERE event = 'TimeoutFired' AND idx >= 0 AND idx < 10000) AS main_loop,
  count(*) FILTER (WHERE event = 'TimeoutFired' AND idx >= 10000 AND idx < 900000) AS subagent,
  count(*) FILTER (WHERE event = 'TimeoutFired' AND idx >= 900000) AS side,
  count(*) FILTER (WHERE event = 'TimeoutFired' AND idx = -1) AS agent_stream,
  count(*) FILTER (WHERE event = 'TimeoutIneffective') AS ineffective,
  count(*) FILTER (WHERE event = 'WatchdogKill') AS watchdog_kills,
  count(DISTINCT session_id) AS sessions
FROM picked
GROUP BY layer
ORDER BY fired DESC, layer;
