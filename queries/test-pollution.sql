-- name: test-pollution
-- description: Census of every tasks/<taskId>.output loaded, by category: empty (0 bytes); test (1-64 bytes
-- whose whole content fully matches $test_pattern, by default the test-suite literals `[轮次 N] 测试响应` and
-- `[轮次 N] spawn 测试响应` with an optional final newline; configured by tasks.testPatterns in
-- trajaudit.config.json); real (everything else). Always three rows, in the order test, empty, real, even when a
-- category has no files (then bytes 0, share 0 and null mtimes). share = files / all files, rounded to 4
-- decimals (null when no file is loaded). --since/--until filter files by mtime; --session does not apply.
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
