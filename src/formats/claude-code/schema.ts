import type { SchemaPart } from '../../db/schema.js';

// Claude Code's tables (one row per transcript line; one per agent meta file) and the views the
// cross-agent tables read (docs/formats.md#claude-code).
const TABLES = `
CREATE TABLE IF NOT EXISTS claude_lines (
  file_id BIGINT, line BIGINT, ts TIMESTAMPTZ, type VARCHAR, subtype VARCHAR, session_id VARCHAR, uuid VARCHAR,
  parent_uuid VARCHAR, is_sidechain BOOLEAN, agent_id VARCHAR, version VARCHAR, cwd VARCHAR, request_id VARCHAR,
  message_id VARCHAR, model VARCHAR, message JSON, tool_use_result JSON, error JSON, retry_attempt BIGINT,
  max_retries BIGINT, retry_in_ms DOUBLE, is_api_error_message BOOLEAN, api_error_status BIGINT, compaction VARCHAR,
  compact_trigger VARCHAR, compact_pre_tokens BIGINT, compact_metadata JSON, microcompact_metadata JSON, content JSON,
  operation VARCHAR, data JSON, parent_tool_use_id VARCHAR, tool_use_id VARCHAR, is_compact_summary BOOLEAN,
  is_meta BOOLEAN, level VARCHAR, git_branch VARCHAR, user_type VARCHAR, logical_parent_uuid VARCHAR,
  duration_ms BIGINT, summary JSON, leaf_uuid VARCHAR, ts_unread VARCHAR);
CREATE TABLE IF NOT EXISTS claude_agent_meta (
  file_id BIGINT, session_id VARCHAR, agent_type VARCHAR, description VARCHAR, tool_use_id VARCHAR,
  parent_agent_id VARCHAR, meta JSON);
`;

const VIEWS = `
-- Every line with its file's path and its thread: the agent of a sidechain (its agentId, else its
-- file's name agent-<id>.jsonl), NULL for the main thread.
CREATE OR REPLACE VIEW claude_records AS
SELECT l.*, f.path AS file_path,
  coalesce(l.agent_id, nullif(regexp_extract(f.path, '(?:^|/)agent-([^/]+)\\.jsonl$', 1), '')) AS thread_agent_id
FROM claude_lines l JOIN input_files f USING (file_id);

-- One row per content block of an assistant or user message (tool_use, tool_result, text, …).
CREATE OR REPLACE VIEW claude_blocks AS
SELECT file_id, file_path, line, ts, type, session_id, thread_agent_id, is_sidechain, tool_use_result,
  block->>'type' AS block_type, block->>'id' AS id, block->>'name' AS name, block->'input' AS input,
  block->>'tool_use_id' AS tool_use_id,
  CASE json_type(block, '$.is_error') WHEN 'BOOLEAN' THEN (block->>'is_error') = 'true' END AS is_error,
  block->'content' AS content,
  CASE json_type(block, '$.content') WHEN 'VARCHAR' THEN block->>'content'
    ELSE array_to_string(json_extract_string(block, '$.content[*].text'), '\n') END AS text
FROM (SELECT *, unnest(json_extract(message, '$.content[*]')) AS block FROM claude_records
      WHERE type IN ('assistant', 'user') AND json_type(message, '$.content') = 'ARRAY');

-- Background task notifications (queue-operation content, or a user line's): the task id and its status.
CREATE OR REPLACE VIEW claude_task_notifications AS
SELECT session_id, ts, file_path, line, regexp_extract(n, '<task-id>\\s*([^<\\s]+)\\s*</task-id>', 1) AS task_id,
  nullif(regexp_extract(n, '<tool-use-id>\\s*([^<\\s]+)\\s*</tool-use-id>', 1), '') AS tool_use_id,
  regexp_extract(n, '<status>\\s*([a-z_]+)\\s*</status>', 1) AS status
FROM (SELECT session_id, ts, file_path, line, unnest(regexp_extract_all(
        CASE WHEN json_type(content) = 'VARCHAR' THEN content->>'$' ELSE coalesce(message->>'$.content', content::VARCHAR) END,
        '<task-notification>[\\s\\S]*?</task-notification>')) AS n
      FROM claude_records
      WHERE (type = 'queue-operation' OR type = 'user')
        AND contains(coalesce(content::VARCHAR, '') || coalesce(message::VARCHAR, ''), '<task-notification>'));

-- Each Task/Agent call, with its result, the sidechain it started and how it ended.
CREATE OR REPLACE VIEW claude_agent_runs AS
WITH calls AS (
  SELECT session_id, id AS tool_use_id, ts AS start_ts, thread_agent_id AS parent_agent_id,
    input->>'subagent_type' AS agent_type, input->>'description' AS description, input->>'prompt' AS prompt,
    coalesce(input->>'run_in_background' = 'true', false) AS background
  FROM claude_blocks WHERE block_type = 'tool_use' AND name IN ('Task', 'Agent')),
results AS (
  SELECT session_id, tool_use_id, ts, is_error, text, tool_use_result,
    tool_use_result->>'status' AS result_status,
    coalesce(tool_use_result->>'agentId', nullif(regexp_extract(text, 'agentId: ([A-Za-z0-9_-]+)', 1), '')) AS agent_id
  FROM claude_blocks WHERE block_type = 'tool_result'
  QUALIFY row_number() OVER (PARTITION BY session_id, tool_use_id ORDER BY ts, line) = 1),
progress_links AS (
  SELECT session_id, parent_tool_use_id AS tool_use_id, any_value(data->>'agentId') AS agent_id
  FROM claude_lines WHERE type = 'progress' AND parent_tool_use_id IS NOT NULL AND (data->>'agentId') IS NOT NULL
  GROUP BY ALL),
meta_links AS (
  SELECT m.tool_use_id, nullif(regexp_extract(f.path, '(?:^|/)agent-([^/]+)\\.meta\\.json$', 1), '') AS agent_id, m.agent_type
  FROM claude_agent_meta m JOIN input_files f USING (file_id) WHERE m.tool_use_id IS NOT NULL),
-- A sidechain starts with the call's prompt as its first user line: the link when nothing else names it.
prompt_links AS (
  SELECT session_id, prompt, any_value(agent_id) AS agent_id FROM (
    SELECT session_id, thread_agent_id AS agent_id,
      arg_min(CASE json_type(message, '$.content') WHEN 'VARCHAR' THEN message->>'$.content'
        ELSE array_to_string(json_extract_string(message, '$.content[*].text'), '\n') END, (ts, line)) AS prompt
    FROM claude_records WHERE thread_agent_id IS NOT NULL AND type = 'user' GROUP BY ALL)
  GROUP BY ALL HAVING count(*) = 1),
sidechains AS (
  SELECT session_id, thread_agent_id AS agent_id, min(ts) AS first_ts, max(ts) AS last_ts,
    count(*) FILTER (type = 'assistant') AS assistant_lines,
    arg_max(coalesce(is_api_error_message, false), (ts, line)) FILTER (type = 'assistant') AS ends_in_api_error,
    arg_max(array_to_string(json_extract_string(message, '$.content[*].text'), ' '), (ts, line)) FILTER (type = 'assistant' AND is_api_error_message) AS api_error_text
  FROM claude_records WHERE thread_agent_id IS NOT NULL GROUP BY ALL),
linked AS (
  SELECT c.*, r.ts AS result_ts, r.is_error, r.text, r.result_status,
    coalesce(r.agent_id, p.agent_id, m.agent_id, q.agent_id) AS agent_id, m.agent_type AS meta_agent_type,
    r.tool_use_id IS NOT NULL AS has_result,
    coalesce(r.result_status = 'async_launched' OR starts_with(r.text, 'Async agent launched'), false) AS launched_async
  FROM calls c
  LEFT JOIN results r USING (session_id, tool_use_id)
  LEFT JOIN progress_links p USING (session_id, tool_use_id)
  LEFT JOIN meta_links m USING (tool_use_id)
  LEFT JOIN prompt_links q ON q.session_id = c.session_id AND q.prompt = c.prompt),
notified AS (
  SELECT l.*, n.status AS notified_status, n.ts AS notified_ts
  FROM linked l LEFT JOIN claude_task_notifications n
    ON n.session_id = l.session_id AND (n.task_id = l.agent_id OR n.tool_use_id = l.tool_use_id OR n.task_id = l.tool_use_id)
  QUALIFY row_number() OVER (PARTITION BY l.session_id, l.tool_use_id ORDER BY n.ts DESC NULLS LAST) = 1),
judged AS (
  SELECT n.*, s.assistant_lines, s.ends_in_api_error, s.api_error_text, s.last_ts AS sidechain_last_ts,
    -- Reported completed while the run ended in an API error (the result text, or the sidechain's last line).
    coalesce(starts_with(ltrim(n.text), 'API Error'), false) OR coalesce(s.ends_in_api_error, false) AS ended_in_api_error,
    CASE
      WHEN n.launched_async AND n.notified_status IS NULL THEN NULL
      WHEN n.launched_async THEN CASE n.notified_status WHEN 'completed' THEN 'completed' WHEN 'failed' THEN 'error' WHEN 'killed' THEN 'killed' ELSE 'unknown' END
        -- (a background run's own end is judged after: its sidechain may end in an API error)
      WHEN NOT n.has_result THEN NULL
      WHEN regexp_matches(n.text, 'AbortError|\\[Request interrupted by user') THEN 'killed'
      WHEN n.is_error THEN 'error'
      WHEN n.result_status = 'completed' OR regexp_matches(n.text, 'agentId: ') THEN 'completed'
      ELSE 'unknown' END AS status,
    CASE WHEN n.launched_async THEN n.notified_ts ELSE n.result_ts END AS stop_ts
  FROM notified n LEFT JOIN sidechains s ON s.session_id = n.session_id AND s.agent_id = n.agent_id)
SELECT session_id, agent_id, coalesce(agent_type, meta_agent_type) AS agent_type, tool_use_id, description, background,
  parent_agent_id, start_ts, stop_ts, CASE WHEN silent THEN 'error' ELSE status END AS status, silent AS silent_failure,
  CASE
    WHEN silent AND coalesce(starts_with(ltrim(text), 'API Error'), false) THEN 'reported completed, result text: ' || left(ltrim(text), 120)
    WHEN silent THEN 'reported completed, sidechain ends in an API error: ' || left(coalesce(api_error_text, ''), 120)
    WHEN launched_async AND notified_status IS NULL THEN 'background agent launched, no task-notification'
    WHEN launched_async THEN 'task-notification status ' || notified_status
    WHEN NOT has_result THEN 'no tool_result for the call' || CASE WHEN sidechain_last_ts IS NOT NULL THEN ', sidechain stops at ' || strftime(sidechain_last_ts, '%Y-%m-%dT%H:%M:%S.%gZ') ELSE '' END
    WHEN status = 'killed' THEN 'interrupted: ' || left(ltrim(text), 120)
    WHEN is_error THEN 'tool_result is_error: ' || left(ltrim(text), 120)
    WHEN status = 'completed' THEN 'tool_result ' || coalesce(result_status, 'with agentId trailer')
    ELSE 'tool_result: ' || left(ltrim(coalesce(text, '')), 120) END AS evidence
FROM (SELECT *, coalesce(status = 'completed' AND ended_in_api_error, false) AS silent FROM judged);
`;

export const claudeCodeSchema: SchemaPart = { tables: TABLES, views: VIEWS };
