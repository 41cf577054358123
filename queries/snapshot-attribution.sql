-- name: snapshot-attribution
-- description: The two-key snapshot split of formats doc §4, per (session, index) with index >= 10000 and at
-- least one StreamPhase row carrying agent_id ("tagged"). The window is the tagged rows' first-to-last time,
-- widened by 1 s on each side. untagged_rows counts StreamPhase rows without agent_id in that window: at the
-- same index, or, for sessions whose provider rows carry the main loop's index, at a main-loop index (0-9999).
-- tagged_chunks/untagged_chunks are the largest chunk_count (else chunks) on each side. verdict: collision when
-- two or more agents have tagged rows at this index with overlapping first-to-last windows; else
-- misattributed-to-main when the session's provider rows carry the main loop's index and untagged main-loop
-- rows fall in the window; else split when untagged_rows > 0; else clean. A session's provider rows are taken
-- to carry the main loop's index (the older generation, no request context, §14) when it has tagged rows but
-- no untagged StreamPhase row at any index >= 10000: at HEAD every sub-agent stream that reached the provider
-- leaves untagged rows at its own index. Decided from the rows, not the sessions view's generation, because
-- intermediate builds mix markers (§14). --since/--until keep a (session, index) when its first tagged row
-- falls in them. Ordered by session_id, index.
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
WITH phases AS (
  SELECT session_id, ts, "index", agent_id, chunk_count
  FROM stream_phases
  WHERE "index" IS NOT NULL AND ($session IS NULL OR session_id = $session)
),
ambient AS (
  -- Sessions whose provider rows never used a sub-agent index: the older generation's behaviour.
  SELECT session_id, NOT bool_or(agent_id IS NULL AND "index" >= 10000) AS provider_at_main_index
  FROM phases GROUP BY session_id
),
per_agent AS (
  SELECT session_id, "index", agent_id, min(ts) AS first_ts, max(ts) AS last_ts
  FROM phases WHERE agent_id IS NOT NULL AND "index" >= 10000
  GROUP BY session_id, "index", agent_id
),
tagged AS (
  SELECT session_id, "index",
    count(DISTINCT agent_id) AS agents,
    string_agg(DISTINCT agent_id, ',' ORDER BY agent_id) AS agent_ids,
    count(*) AS tagged_rows,
    max(chunk_count) AS tagged_chunks,
    min(ts) AS first_ts, max(ts) AS last_ts
  FROM phases WHERE agent_id IS NOT NULL AND "index" >= 10000
  GROUP BY session_id, "index"
),
collisions AS (
  SELECT DISTINCT a.session_id, a."index"
  FROM per_agent a JOIN per_agent b
    ON b.session_id = a.session_id AND b."index" = a."index" AND b.agent_id > a.agent_id
   AND a.first_ts <= b.last_ts AND b.first_ts <= a.last_ts
),
untagged AS (
  SELECT t.session_id, t."index",
    count(p.ts) AS untagged_rows,
    max(p.chunk_count) AS untagged_chunks,
    count(p.ts) FILTER (p."index" < 10000) AS main_index_rows
  FROM tagged t
  JOIN ambient m USING (session_id)
  LEFT JOIN phases p
    ON p.session_id = t.session_id AND p.agent_id IS NULL
   AND p.ts BETWEEN t.first_ts - INTERVAL 1 SECOND AND t.last_ts + INTERVAL 1 SECOND
   AND (p."index" = t."index" OR (m.provider_at_main_index AND p."index" BETWEEN 0 AND 9999))
  GROUP BY t.session_id, t."index"
)
SELECT t.session_id, t."index", t.agents, t.agent_ids, t.tagged_rows, u.untagged_rows,
  t.tagged_chunks, u.untagged_chunks,
  CASE
    WHEN c.session_id IS NOT NULL THEN 'collision'
    WHEN u.main_index_rows > 0 THEN 'misattributed-to-main'
    WHEN u.untagged_rows > 0 THEN 'split'
    ELSE 'clean'
  END AS verdict
FROM tagged t
JOIN untagged u USING (session_id, "index")
LEFT JOIN collisions c USING (session_id, "index")
WHERE ($since IS NULL OR t.first_ts >= CAST($since AS TIMESTAMPTZ))
  AND ($until IS NULL OR t.first_ts < CAST($until AS TIMESTAMPTZ))
ORDER BY t.session_id, t."index";
