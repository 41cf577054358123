-- name: snapshot-attribution
-- description: The two-key snapshot split, per (session, index) with index >= 10000 and at least one StreamPhase row
--   carrying agent_id ("tagged"): one row each, with a verdict. Ordered by session_id, index.
-- columns: session_id, index, agents, agent_ids, tagged_rows, untagged_rows, tagged_chunks, untagged_chunks, verdict
-- signals: stream_phases
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH
-- A (session, index) is in the window by its first tagged row; the sessions with one are all the
-- answer needs. The sub-agents' streams are stored (subagent_stream_rows), each with its first and
-- last tagged row, count, chunks and whether it was cut off.
windowed_sessions AS (
  SELECT DISTINCT session_id FROM (
    SELECT session_id, "index", min(first_ts) AS first_ts FROM subagent_stream_rows
    WHERE ($session IS NULL OR session_id = $session)
    GROUP BY session_id, "index")
  WHERE ($since IS NULL OR first_ts >= CAST($since AS TIMESTAMPTZ)) AND ($until IS NULL OR first_ts < CAST($until AS TIMESTAMPTZ))
),
streams AS (
  SELECT * FROM subagent_stream_rows WHERE session_id IN (SELECT session_id FROM windowed_sessions)
),
-- The provider rows (no agent_id): most of the StreamPhase rows, stored apart with only what the
-- joins below read and the chunk count. A sub-agent's own index (10000 and up) and the main loop's
-- (0-9999) are matched apart.
untagged_own AS (
  SELECT session_id, file_id, line, ts, idx AS "index", chunk_count
  FROM untagged_stream_fields
  WHERE idx >= 10000 AND session_id IN (SELECT session_id FROM windowed_sessions)
),
untagged_main AS NOT MATERIALIZED (
  SELECT session_id, file_id, line, ts, idx AS "index", chunk_count
  FROM untagged_stream_fields
  WHERE idx BETWEEN 0 AND 9999 AND session_id IN (SELECT session_id FROM windowed_sessions)
),
-- Per (session, index), from its streams (one per agent): no DISTINCT over every tagged row.
tagged AS (
  SELECT session_id, "index",
    count(*) AS agents,
    array_to_string(list_sort(list(agent_id)), ', ') AS agent_ids,
    sum(tagged_rows) AS tagged_rows,
    max(tagged_chunks) AS tagged_chunks,
    min(first_ts) AS first_ts, max(last_ts) AS last_ts
  FROM streams
  GROUP BY session_id, "index"
),
own_index AS (
  -- Streams whose provider rows carry the stream's own index (request context, HEAD). The others may be
  -- of the older build, or never reached the provider: either way only rows inside them can be theirs.
  SELECT DISTINCT s.session_id, s."index", s.agent_id
  FROM streams s JOIN untagged_own u
    ON u.session_id = s.session_id AND u."index" = s."index"
   AND u.ts BETWEEN s.first_ts - INTERVAL 1 SECOND AND s.last_ts + INTERVAL 1 SECOND
),
run_stops AS (
  -- A cut-off stream's provider rows go on until the sub-agent ends (the Start-Stop interval).
  SELECT s.session_id, s."index", s.agent_id, min(r.stop_ts) AS stop_ts
  FROM streams s JOIN subagent_runs r
    ON r.session_id = s.session_id AND r.task_id = s.task_id
   AND r.start_ts <= s.first_ts AND r.stop_ts >= s.last_ts
  WHERE s.cut_off
  GROUP BY s.session_id, s."index", s.agent_id
),
spans AS (
  -- Each stream's interval, the cut-off extension included: the collision test and the main-loop rows
  -- use the same one (a hung stream shares the provider's untagged key until its agent ends).
  SELECT s.session_id, s."index", s.agent_id, s.first_ts, coalesce(r.stop_ts, s.last_ts) AS end_ts
  FROM streams s LEFT JOIN run_stops r USING (session_id, "index", agent_id)
),
-- Two agents' spans of one (session, index) overlap when, in start order, one starts before a span
-- that started earlier has ended (spans are per agent: every two rows are two agents).
collisions AS (
  SELECT DISTINCT session_id, "index" FROM (
    SELECT session_id, "index", first_ts,
      max(end_ts) OVER (PARTITION BY session_id, "index" ORDER BY first_ts, end_ts, agent_id
                        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS earlier_end_ts
    FROM spans)
  WHERE first_ts <= earlier_end_ts
),
main_index_streams AS (
  SELECT s.* FROM spans s
  LEFT JOIN own_index o USING (session_id, "index", agent_id)
  WHERE o.agent_id IS NULL
),
-- A stream's hours (of its session's time): the provider rows of an hour are compared with the streams
-- of that hour only, not with every stream of the session. A stream over 1,000 hours is compared with
-- every row of its session.
main_index_hours AS (
  SELECT *, unnest(range(epoch_us(first_ts) // 3600000000, epoch_us(end_ts) // 3600000000 + 1)) AS hour
  FROM main_index_streams WHERE epoch_us(end_ts) // 3600000000 - epoch_us(first_ts) // 3600000000 < 1000
),
main_index_rows AS (
  -- Each provider row goes to at most one (session, index): nested intervals are parallel agents.
  SELECT session_id, "index", file_id, line, chunk_count FROM (
    SELECT m.session_id, m."index", m.agent_id, m.first_ts, u.file_id, u.line, u.chunk_count
    FROM main_index_hours m JOIN untagged_main u
      ON u.session_id = m.session_id AND epoch_us(u.ts) // 3600000000 = m.hour AND u."index" BETWEEN 0 AND 9999
     AND u.ts BETWEEN m.first_ts AND m.end_ts
    UNION ALL
    SELECT m.session_id, m."index", m.agent_id, m.first_ts, u.file_id, u.line, u.chunk_count
    FROM main_index_streams m JOIN untagged_main u
      ON u.session_id = m.session_id AND u."index" BETWEEN 0 AND 9999 AND u.ts BETWEEN m.first_ts AND m.end_ts
    WHERE epoch_us(m.end_ts) // 3600000000 - epoch_us(m.first_ts) // 3600000000 >= 1000)
  QUALIFY row_number() OVER (PARTITION BY file_id, line ORDER BY first_ts DESC, "index", agent_id) = 1
),
same_index_rows AS (
  SELECT t.session_id, t."index", u.file_id, u.line, u.chunk_count
  FROM tagged t JOIN untagged_own u
    ON u.session_id = t.session_id AND u."index" = t."index"
   AND u.ts BETWEEN t.first_ts - INTERVAL 1 SECOND AND t.last_ts + INTERVAL 1 SECOND
),
untagged AS (
  SELECT session_id, "index", count(*) AS untagged_rows, max(chunk_count) AS untagged_chunks,
    count(*) FILTER (main_index) AS main_index_rows
  FROM (SELECT *, false AS main_index FROM same_index_rows UNION ALL SELECT *, true FROM main_index_rows)
  GROUP BY session_id, "index"
)
SELECT t.session_id, t."index", t.agents, t.agent_ids, t.tagged_rows, coalesce(u.untagged_rows, 0) AS untagged_rows,
  t.tagged_chunks, u.untagged_chunks,
  CASE
    WHEN c.session_id IS NOT NULL THEN 'collision'
    WHEN u.main_index_rows > 0 THEN 'misattributed-to-main'
    WHEN u.untagged_rows > 0 THEN 'split'
    ELSE 'clean'
  END AS verdict
FROM tagged t
LEFT JOIN untagged u USING (session_id, "index")
LEFT JOIN collisions c USING (session_id, "index")
WHERE ($since IS NULL OR t.first_ts >= CAST($since AS TIMESTAMPTZ))
  AND ($until IS NULL OR t.first_ts < CAST($until AS TIMESTAMPTZ))
ORDER BY t.session_id, t."index";
