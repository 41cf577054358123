-- name: tool-errors
-- description: Tool errors by tool, root errors apart from sibling cascades (a parallel call cancelled because another
--   failed): one row per (source, tool_name) with at least one result, from tool_results. Ordered by source, root_errors desc, tool_name.
-- columns: source, tool_name, results, errors, root_errors, sibling_cascades, error_rate
-- signals: tool_errors
-- param: since TIMESTAMP = NULL
-- param: until TIMESTAMP = NULL
-- param: session VARCHAR = NULL
SELECT source, tool_name, count(*) AS results, count(*) FILTER (is_error) AS errors,
  count(*) FILTER (is_error AND NOT sibling_cascade) AS root_errors, count(*) FILTER (sibling_cascade) AS sibling_cascades,
  round(count(*) FILTER (is_error) / count(*), 3) AS error_rate
FROM tool_results
WHERE ($since IS NULL OR ts >= CAST($since AS TIMESTAMPTZ))
  AND ($until IS NULL OR ts < CAST($until AS TIMESTAMPTZ))
  AND ($session IS NULL OR session_id = $session)
GROUP BY ALL
ORDER BY source, root_errors DESC, tool_name NULLS LAST;
