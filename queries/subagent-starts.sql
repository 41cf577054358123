-- name: subagent-starts
-- description: Subagent outcomes per agent_type: one row per SubagentStart agent_type. A Start pairs with a
-- later Stop of the same session and agent_id; custom subagents, whose Stop has a null agent_id and agent_type,
-- pair the same way among themselves (a custom Start's agent_id is subagent-custom-…) and take agent_type from
-- their Start. Pairing goes in time order (then line): each Stop takes the earliest Start of its key that came
-- before it and is still unpaired; a Stop with none is a Stop without a Start (the subagent_runs view).
-- completed/error/unknown count paired Stops by status; never_stopped counts Starts with no paired Stop;
-- Stops that pair with no Start are not counted. sessions counts distinct sessions with a Start.
-- p50_elapsed_ms is the lower median (quantile_disc 0.5: an observed value, the smaller middle one for an
-- even count) and max_elapsed_ms the maximum of the paired Stops' elapsed_ms (nulls ignored).
-- --since/--until filter Starts by time (their Stops may fall later). Ordered by starts desc, then agent_type.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH paired AS (
  SELECT session_id, start_ts AS ts, agent_type, status, elapsed_ms, stop_line IS NOT NULL AS stopped
  FROM subagent_runs
  WHERE ($session IS NULL OR session_id = $session)
    AND ($since IS NULL OR start_ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR start_ts < CAST($until AS TIMESTAMPTZ))
)
SELECT agent_type,
  count(*) AS starts,
  count(*) FILTER (status = 'completed') AS completed,
  count(*) FILTER (status = 'error') AS error,
  count(*) FILTER (status = 'unknown') AS unknown,
  count(*) FILTER (NOT stopped) AS never_stopped,
  count(DISTINCT session_id) AS sessions,
  quantile_disc(elapsed_ms, 0.5) AS p50_elapsed_ms,
  max(elapsed_ms) AS max_elapsed_ms
FROM paired
GROUP BY agent_type
ORDER BY starts DESC, agent_type;
