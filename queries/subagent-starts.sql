-- name: subagent-starts
-- description: Subagent outcomes per agent_type: one row per SubagentStart agent_type. A Start pairs with the
-- Stop of the same session and agent_id (the n-th Start of an id with its n-th Stop, by time then line);
-- custom subagents, whose Stop has a null agent_id and agent_type, pair in order: the n-th custom Start of a
-- session (agent_id subagent-custom-…) with its n-th null-agent_id Stop, and take agent_type from that Start.
-- completed/error/unknown count paired Stops by status; never_stopped counts Starts with no paired Stop;
-- Stops that pair with no Start are not counted. sessions counts distinct sessions with a Start.
-- p50_elapsed_ms is the lower median (quantile_disc 0.5: an observed value, the smaller middle one for an
-- even count) and max_elapsed_ms the maximum of the paired Stops' elapsed_ms (nulls ignored).
-- --since/--until filter Starts by time (their Stops may fall later). Ordered by starts desc, then agent_type.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH lifecycle AS (
  SELECT session_id, ts, line, kind, agent_id, agent_type, status, elapsed_ms,
    -- Built-in ids pair by themselves; every custom Start and every null-id Stop share one key.
    CASE WHEN agent_id IS NULL OR starts_with(agent_id, 'subagent-custom-') THEN NULL ELSE agent_id END AS pair_key
  FROM subagent_lifecycle
  WHERE $session IS NULL OR session_id = $session
),
numbered AS (
  SELECT *, row_number() OVER (PARTITION BY session_id, kind, pair_key ORDER BY ts, line) AS nth
  FROM lifecycle
),
starts AS (SELECT * FROM numbered WHERE kind = 'start'),
stops AS (SELECT * FROM numbered WHERE kind = 'stop'),
paired AS (
  SELECT a.session_id, a.ts, a.agent_type, b.status, b.elapsed_ms, b.kind IS NOT NULL AS stopped
  FROM starts a
  LEFT JOIN stops b ON b.session_id = a.session_id AND b.pair_key IS NOT DISTINCT FROM a.pair_key AND b.nth = a.nth
  WHERE ($since IS NULL OR a.ts >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR a.ts < CAST($until AS TIMESTAMPTZ))
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
