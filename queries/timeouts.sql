-- name: timeouts
-- description: Which timeout layer fired, and did it take effect (formats doc §3.5, §15 item 7)? One
--   row per layer seen in TimeoutFired or TimeoutIneffective, plus `watchdog_kill` when there is a
--   WatchdogKill (OLD sessions write WatchdogKill without a TimeoutFired; HEAD writes both).
--   Columns: layer; fired (TimeoutFired rows); main_loop (index 0–9999), subagent (10000–899999),
--   side (≥ 900000), agent_stream (index −1: agent_overall/heartbeat timeouts) — fired split by the
--   index namespace (§2); ineffective (TimeoutIneffective rows of that layer: the timeout fired but
--   the awaited race did not settle within 5 s); watchdog_kills (WatchdogKill rows, on the
--   watchdog_kill row only); sessions (sessions with any of the row's events). since/until filter
--   all three events.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH picked AS (
  SELECT session_id, event, idx, CASE WHEN event = 'WatchdogKill' THEN 'watchdog_kill' ELSE data->>'layer' END AS layer
  FROM events
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
