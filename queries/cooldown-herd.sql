-- name: cooldown-herd
-- description: Shared-cooldown coordination: one row per window of a session's wakes (tries to send) with
--   at least min_agents agents; a herd is many agents in one window. Ordered by session_id, window_start.
-- columns: session_id, window_start, window_end, span_ms, agents, agent_ids, wakes, entry_waits, aligned_waits, retries, probes_granted, probes_denied, probe_decisions
-- signals: main_retries
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
-- param: window_ms BIGINT = 250
-- param: min_agents BIGINT = 1
-- The wakes, each with its agent's name, are stored (cooldown_wake_rows).
WITH wakes AS (
  SELECT * FROM cooldown_wake_rows r
  WHERE ($since IS NULL OR r.ts >= CAST($since AS TIMESTAMPTZ))
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
  -- One list per window, deduplicated after: DISTINCT aggregates keep a set per group.
  len(list_distinct(list(agent))) AS agents, array_to_string(list_sort(list_distinct(list(agent))), ', ') AS agent_ids, count(*) AS wakes,
  count(*) FILTER (WHERE type = 'shared_cooldown_wait' AND attempt IS NULL) AS entry_waits,
  count(*) FILTER (WHERE type = 'shared_cooldown_wait' AND attempt IS NOT NULL) AS aligned_waits,
  count(*) FILTER (WHERE type = 'retry') AS retries,
  count(*) FILTER (WHERE type = 'cooldown_probe') AS probes_granted,
  count(*) FILTER (WHERE type = 'cooldown_probe_denied') AS probes_denied,
  any_value(d.probe_decisions) AS probe_decisions
FROM numbered n LEFT JOIN decisions d USING (session_id, window_no)
GROUP BY n.session_id, n.window_no
HAVING len(list_distinct(list(agent))) >= $min_agents
ORDER BY n.session_id, window_start;
