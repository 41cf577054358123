-- name: subagent-starts
-- description: Subagent outcomes per agent_type: one row per SubagentStart agent_type. A Start pairs with a
-- later Stop of the same session and agent_id; custom subagents, whose Stop has a null agent_id and agent_type,
-- pair the same way among themselves (a custom Start's agent_id is subagent-custom-…) and take agent_type from
-- their Start. Pairing goes in time order (then line): each Stop takes the earliest Start of its key that came
-- before it and is still unpaired; a Stop with none is a Stop without a Start.
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
ordered AS (
  SELECT *,
    count(*) FILTER (kind = 'start') OVER key_order AS starts_so_far,
    count(*) FILTER (kind = 'stop') OVER key_order AS stops_so_far
  FROM lifecycle
  WINDOW key_order AS (PARTITION BY session_id, pair_key ORDER BY ts, line ROWS UNBOUNDED PRECEDING)
),
-- First in, first out: after the i-th Stop, min(i, min over Stops j ≤ i of (Starts before j + i - j)) Stops
-- have paired, so the i-th Stop pairs exactly when that count grows, and the k-th paired Stop takes the k-th Start.
stop_counts AS (
  SELECT *, stops_so_far + least(0, min(starts_so_far - stops_so_far) OVER key_order) AS paired_so_far
  FROM ordered WHERE kind = 'stop'
  WINDOW key_order AS (PARTITION BY session_id, pair_key ORDER BY ts, line ROWS UNBOUNDED PRECEDING)
),
stops AS (
  SELECT *, paired_so_far AS nth FROM stop_counts
  QUALIFY paired_so_far > coalesce(lag(paired_so_far) OVER (PARTITION BY session_id, pair_key ORDER BY ts, line), 0)
),
starts AS (SELECT *, starts_so_far AS nth FROM ordered WHERE kind = 'start'),
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
