-- name: test-pollution
-- description: Census of every tasks/<taskId>.output loaded, by category: always three rows, test, empty and real, in that
--   order, with each category's files, bytes, share of all files and oldest and newest mtime.
-- columns: category, files, bytes, share, oldest_mtime, newest_mtime
-- signals: task_outputs
-- sources: sid-code
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: test_pattern VARCHAR = '^\[轮次 \d+\] (spawn )?测试响应\n?$'
WITH files AS (
  SELECT bytes, mtime,
    CASE
      WHEN bytes = 0 THEN 'empty'
      WHEN bytes <= 64 AND regexp_full_match(head, $test_pattern) THEN 'test'
      ELSE 'real'
    END AS category
  FROM task_outputs
  WHERE ($since IS NULL OR mtime >= CAST($since AS TIMESTAMPTZ))
    AND ($until IS NULL OR mtime < CAST($until AS TIMESTAMPTZ))
),
categories(category, ord) AS (VALUES ('test', 1), ('empty', 2), ('real', 3))
SELECT c.category,
  count(f.category) AS files,
  coalesce(sum(f.bytes), 0) AS bytes,
  round(count(f.category) / nullif((SELECT count(*) FROM files), 0), 4) AS share,
  min(f.mtime) AS oldest_mtime,
  max(f.mtime) AS newest_mtime
FROM categories c LEFT JOIN files f USING (category)
GROUP BY c.category, c.ord
ORDER BY c.ord;
