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
  duration_ms BIGINT, summary JSON, leaf_uuid VARCHAR, ts_unread VARCHAR,
  result_agent_id VARCHAR, result_status VARCHAR, progress_agent_id VARCHAR);
-- What the views read of a message, taken out of it at load (transcript-adapter.ts): no query parses a message.
CREATE TABLE IF NOT EXISTS claude_messages (
  file_id BIGINT, line BIGINT,
  tool_calls STRUCT(id VARCHAR, name VARCHAR, agent_type VARCHAR, description VARCHAR, background BOOLEAN, prompt_hash UBIGINT)[],
  tool_results STRUCT(tool_use_id VARCHAR, is_error BOOLEAN, sibling_cascade BOOLEAN, api_error BOOLEAN, interrupted BOOLEAN,
    async_launched BOOLEAN, agent_id VARCHAR, head VARCHAR)[],
  text_hash UBIGINT, notifications STRUCT(task_id VARCHAR, tool_use_id VARCHAR, status VARCHAR)[]);
CREATE TABLE IF NOT EXISTS claude_agent_meta (
  file_id BIGINT, session_id VARCHAR, agent_type VARCHAR, description VARCHAR, tool_use_id VARCHAR,
  parent_agent_id VARCHAR, meta JSON);
`;

/** A line's thread: the sidechain's agent (its agentId, else its file's name agent-<id>.jsonl), NULL for the main thread. */
const THREAD_AGENT = `coalesce(l.agent_id, nullif(regexp_extract(f.path, '(?:^|/)agent-([^/]+)\\.jsonl$', 1), ''))`;

/** Each tool result the load took out of a message, one row per result: r is its struct. */
const TOOL_RESULT_ROWS = `(SELECT file_id, line, unnest(tool_results) AS r FROM claude_messages WHERE tool_results IS NOT NULL)`;

const VIEWS = `
-- Every line with its file's path and its thread: the agent of a sidechain (its agentId, else its
-- file's name agent-<id>.jsonl), NULL for the main thread.
CREATE OR REPLACE VIEW claude_records AS
SELECT l.*, m.tool_calls, m.tool_results, m.text_hash, m.notifications, f.path AS file_path, ${THREAD_AGENT} AS thread_agent_id
FROM claude_lines l JOIN input_files f USING (file_id) LEFT JOIN claude_messages m USING (file_id, line);

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

-- Background task notifications (a queue-operation's content, or a user line's): the task and its status.
CREATE OR REPLACE VIEW claude_task_notifications AS
SELECT l.session_id, l.ts, f.path AS file_path, l.line, m.n.task_id, m.n.tool_use_id, m.n.status
FROM (SELECT file_id, line, unnest(notifications) AS n FROM claude_messages WHERE notifications IS NOT NULL) m
JOIN claude_lines l USING (file_id, line) JOIN input_files f USING (file_id);

-- Each tool call and each tool result, from the columns the load took out of the messages: only
-- the lines that hold one are joined to their line and file.
CREATE OR REPLACE VIEW claude_tool_calls AS
SELECT l.session_id, l.ts, f.path AS file_path, l.line, ${THREAD_AGENT} AS thread_agent_id,
  m.c.id AS tool_use_id, m.c.name, m.c.agent_type, m.c.description, m.c.background, m.c.prompt_hash
FROM (SELECT file_id, line, unnest(tool_calls) AS c FROM claude_messages WHERE tool_calls IS NOT NULL) m
JOIN claude_lines l USING (file_id, line) JOIN input_files f USING (file_id);
CREATE OR REPLACE VIEW claude_tool_results AS
SELECT l.session_id, l.ts, f.path AS file_path, l.line, ${THREAD_AGENT} AS thread_agent_id, l.result_agent_id, l.result_status,
  m.r.tool_use_id, m.r.is_error, m.r.sibling_cascade, m.r.api_error, m.r.interrupted, m.r.async_launched, m.r.agent_id, m.r.head
FROM ${TOOL_RESULT_ROWS} m
JOIN claude_lines l USING (file_id, line) JOIN input_files f USING (file_id);

-- Each Task/Agent call, with its result, the sidechain it started and how it ended.
CREATE OR REPLACE VIEW claude_agent_runs AS
WITH calls AS (
  SELECT session_id, tool_use_id, ts AS start_ts, thread_agent_id AS parent_agent_id, agent_type, description, background, prompt_hash
  FROM claude_tool_calls WHERE name IN ('Task', 'Agent')),
-- Only the results of these calls are joined to their lines: most tool results are not an agent's.
results AS (
  SELECT l.session_id, m.r.tool_use_id AS tool_use_id, l.ts, m.r.is_error AS is_error, m.r.head AS head, m.r.api_error AS api_error,
    m.r.interrupted AS interrupted, l.result_status, m.r.async_launched OR l.result_status = 'async_launched' AS launched_async,
    coalesce(l.result_agent_id, m.r.agent_id) AS agent_id
  FROM ${TOOL_RESULT_ROWS} m SEMI JOIN calls c ON c.tool_use_id = m.r.tool_use_id JOIN claude_lines l USING (file_id, line)
  QUALIFY row_number() OVER (PARTITION BY l.session_id, m.r.tool_use_id ORDER BY l.ts, line) = 1),
progress_links AS (
  SELECT session_id, parent_tool_use_id AS tool_use_id, any_value(progress_agent_id) AS agent_id
  FROM claude_lines WHERE progress_agent_id IS NOT NULL AND parent_tool_use_id IS NOT NULL GROUP BY ALL),
meta_links AS (
  SELECT m.tool_use_id, nullif(regexp_extract(f.path, '(?:^|/)agent-([^/]+)\\.meta\\.json$', 1), '') AS agent_id, m.agent_type
  FROM claude_agent_meta m JOIN input_files f USING (file_id) WHERE m.tool_use_id IS NOT NULL),
sidechain_lines AS (
  SELECT l.file_id, l.line, l.ts, l.type, l.session_id, l.is_api_error_message, l.api_error_status, l.error, ${THREAD_AGENT} AS agent_id
  FROM claude_lines l JOIN input_files f USING (file_id)),
sidechains AS (
  SELECT session_id, agent_id, min(ts) AS first_ts, max(ts) AS last_ts,
    arg_min((file_id, line), (ts, line)) FILTER (type = 'user') AS first_prompt,
    arg_max(coalesce(is_api_error_message, false), (ts, line)) FILTER (type = 'assistant') AS ends_in_api_error,
    arg_max(api_error_status, (ts, line)) FILTER (type = 'assistant' AND is_api_error_message) AS api_error_status,
    arg_max(error->>'$', (ts, line)) FILTER (type = 'assistant' AND is_api_error_message) AS api_error
  FROM sidechain_lines WHERE agent_id IS NOT NULL AND NOT starts_with(agent_id, 'acompact') GROUP BY ALL),
-- A sidechain starts with its call's prompt as its first user line: the link when nothing else names it.
prompt_links AS (
  SELECT s.session_id, m.text_hash AS prompt_hash, any_value(s.agent_id) AS agent_id
  FROM sidechains s JOIN claude_messages m ON m.file_id = s.first_prompt[1] AND m.line = s.first_prompt[2]
  WHERE m.text_hash IS NOT NULL GROUP BY ALL HAVING count(*) = 1),
linked AS (
  SELECT c.*, r.ts AS result_ts, r.is_error, r.head, r.api_error, r.interrupted, r.result_status,
    coalesce(r.launched_async, false) AS launched_async, r.tool_use_id IS NOT NULL AS has_result,
    coalesce(r.agent_id, p.agent_id, m.agent_id, q.agent_id) AS agent_id, m.agent_type AS meta_agent_type
  FROM calls c
  LEFT JOIN results r USING (session_id, tool_use_id)
  LEFT JOIN progress_links p USING (session_id, tool_use_id)
  LEFT JOIN meta_links m USING (tool_use_id)
  LEFT JOIN prompt_links q ON q.session_id = c.session_id AND q.prompt_hash = c.prompt_hash),
notified AS (
  SELECT l.*, n.status AS notified_status, n.ts AS notified_ts
  FROM linked l LEFT JOIN claude_task_notifications n
    ON n.session_id = l.session_id AND (n.task_id = l.agent_id OR n.tool_use_id = l.tool_use_id OR n.task_id = l.tool_use_id)
  QUALIFY row_number() OVER (PARTITION BY l.session_id, l.tool_use_id ORDER BY n.ts DESC NULLS LAST) = 1),
judged AS (
  SELECT n.*, s.ends_in_api_error, s.api_error, s.api_error_status, s.last_ts AS sidechain_last_ts,
    -- Reported completed while the run ended in an API error (the result text, or the sidechain's last line).
    coalesce(n.api_error, false) OR coalesce(s.ends_in_api_error, false) AS ended_in_api_error,
    CASE
      WHEN n.launched_async AND n.notified_status IS NULL THEN NULL
      WHEN n.launched_async THEN CASE n.notified_status WHEN 'completed' THEN 'completed' WHEN 'failed' THEN 'error' WHEN 'killed' THEN 'killed' ELSE 'unknown' END
      WHEN NOT n.has_result THEN NULL
      WHEN n.interrupted THEN 'killed'
      WHEN n.is_error THEN 'error'
      WHEN n.result_status = 'completed' OR n.agent_id IS NOT NULL THEN 'completed'
      ELSE 'unknown' END AS status,
    CASE WHEN n.launched_async THEN n.notified_ts ELSE n.result_ts END AS stop_ts
  FROM notified n LEFT JOIN sidechains s ON s.session_id = n.session_id AND s.agent_id = n.agent_id)
SELECT session_id, agent_id, coalesce(agent_type, meta_agent_type) AS agent_type, tool_use_id, description, background,
  parent_agent_id, start_ts, stop_ts, CASE WHEN silent THEN 'error' ELSE status END AS status, silent AS silent_failure,
  CASE
    WHEN silent AND coalesce(api_error, false) THEN 'reported completed, result text: ' || left(head, 120)
    WHEN silent THEN 'reported completed, sidechain ends in an API error: ' || coalesce(api_error, '') || coalesce(' ' || api_error_status, '')
    WHEN launched_async AND notified_status IS NULL THEN 'background agent launched, no task-notification'
    WHEN launched_async THEN 'task-notification status ' || notified_status
    WHEN NOT has_result THEN 'no tool_result for the call' || CASE WHEN sidechain_last_ts IS NOT NULL THEN ', sidechain stops at ' || strftime(sidechain_last_ts, '%Y-%m-%dT%H:%M:%S.%gZ') ELSE '' END
    WHEN status = 'killed' THEN 'interrupted: ' || left(head, 120)
    WHEN is_error THEN 'tool_result is_error: ' || left(head, 120)
    WHEN status = 'completed' THEN 'tool_result ' || coalesce(result_status, 'with agentId trailer')
    ELSE 'tool_result: ' || left(coalesce(head, ''), 120) END AS evidence
FROM (SELECT *, coalesce(status = 'completed' AND ended_in_api_error, false) AS silent FROM judged);
`;

export const claudeCodeSchema: SchemaPart = { tables: TABLES, views: VIEWS };
