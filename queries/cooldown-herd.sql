-- name: cooldown-herd
-- description: Shared-cooldown coordination (formats doc §3.4, §15 item 4): the moments agents tried
--   to send, grouped into windows, so a thundering herd shows as many agents in one window. A "wake"
--   is a shared_cooldown_wait or retry row at ts + delayMs (when its sleep ends), or a cooldown_probe /
--   cooldown_probe_denied row at ts (the path asked to go now). A row with no readable time, and a wait
--   or retry whose delayMs is missing, not an integer or too large to add to a time, has no known wake: it falls in no window (it is
--   left out, not placed at its ts as if it had slept 0 ms, which could make a herd that never happened;
--   retry-telemetry still counts it). Wakes of one session form one window
--   while each is at most $window_ms after the previous one. Windows with fewer than $min_agents
--   distinct agents are left out (2 = herds only). Columns: session_id; window_start, window_end
--   (first and last wake); span_ms; agents (distinct agents, the main loop counting as one);
--   agent_ids (sorted, SubagentStart form when known, `main` for the main loop); wakes (rows);
--   entry_waits (shared_cooldown_wait without attempt: waited before the first request);
--   aligned_waits (shared_cooldown_wait with attempt: retry backoff raised to the cooldown); retries;
--   probes_granted (cooldown_probe), probes_denied (cooldown_probe_denied); probe_decisions
--   (`probeDecision=count`, sorted). since/until filter the RetryTelemetry rows.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
-- param: window_ms BIGINT = 250
-- param: min_agents BIGINT = 1
WITH names AS (
  SELECT session_id, task_id, min(agent_id) AS name FROM subagent_lifecycle
  WHERE kind = 'start' AND task_id IS NOT NULL GROUP BY session_id, task_id),
wakes AS (
  SELECT r.session_id, r.line, r.type, r.attempt, r.probe_decision,
    -- NULL when the time or the delay is unknown (a missing count counts as missing, README "Tables"),
    -- or past DuckDB's times (a garbled delayMs of 9.3e15 ms): no known wake, as a missing delay.
    CASE WHEN r.type IN ('shared_cooldown_wait', 'retry') THEN try(r.ts + to_milliseconds(r.delay_ms)) ELSE r.ts END AS wake_ts,
    CASE WHEN r.agent_id IS NULL THEN 'main' ELSE coalesce(n.name, r.agent_id) END AS agent
  FROM retry_telemetry r LEFT JOIN names n ON n.session_id = r.session_id AND n.task_id = r.task_id
  WHERE r.type IN ('shared_cooldown_wait', 'retry', 'cooldown_probe', 'cooldown_probe_denied')
    AND ($since IS NULL OR r.ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR r.ts < CAST($until AS TIMESTAMPTZ))
    AND ($session IS NULL OR r.session_id = $session)),
-- Only known wakes are windowed: a NULL wake sorts last and would start a window of its own.
known AS (SELECT * FROM wakes WHERE wake_ts IS NOT NULL),
starts AS (
  SELECT *, CASE WHEN date_diff('millisecond', lag(wake_ts) OVER w, wake_ts) <= $window_ms THEN 0 ELSE 1 END AS new_window
  FROM known WINDOW w AS (PARTITION BY session_id ORDER BY wake_ts, line)),
numbered AS (
  SELECT *, sum(new_window) OVER (PARTITION BY session_id ORDER BY wake_ts, line) AS window_no FROM starts),
decisions AS (
  SELECT session_id, window_no, string_agg(probe_decision || '=' || n, ', ' ORDER BY probe_decision) AS probe_decisions
  FROM (SELECT session_id, window_no, probe_decision, count(*) AS n FROM numbered
        WHERE probe_decision IS NOT NULL GROUP BY ALL)
  GROUP BY ALL)
SELECT n.session_id, min(wake_ts) AS window_start, max(wake_ts) AS window_end,
  date_diff('millisecond', min(wake_ts), max(wake_ts)) AS span_ms,
  count(DISTINCT agent) AS agents, string_agg(DISTINCT agent, ', ' ORDER BY agent) AS agent_ids, count(*) AS wakes,
  count(*) FILTER (WHERE type = 'shared_cooldown_wait' AND attempt IS NULL) AS entry_waits,
  count(*) FILTER (WHERE type = 'shared_cooldown_wait' AND attempt IS NOT NULL) AS aligned_waits,
  count(*) FILTER (WHERE type = 'retry') AS retries,
  count(*) FILTER (WHERE type = 'cooldown_probe') AS probes_granted,
  count(*) FILTER (WHERE type = 'cooldown_probe_denied') AS probes_denied,
  any_value(d.probe_decisions) AS probe_decisions
FROM numbered n LEFT JOIN decisions d USING (session_id, window_no)
GROUP BY n.session_id, n.window_no
HAVING count(DISTINCT agent) >= $min_agents
ORDER BY n.session_id, window_start;
