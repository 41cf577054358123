// One session's rows, merged and ordered by time, then source (events, warn, errors — the order of
// the `source` column's values — then a Claude Code session's transcript lines), then file and line.
import type { Database } from '../db/database.js';
import type { Cell } from '../render/types.js';
import { sqlTaskId } from './agent-id.js';

export type TimelineSource = 'events' | 'warn' | 'errors' | 'transcript';

export interface MergedRow {
  ts: string | null;
  source: TimelineSource;
  file: string;
  line: number;
  event: string;
  /** Normalized: the SubagentStart id when the session has one for this task id. */
  agent: string | null;
  taskId: string | null;
  index: number | null;
  data: Cell;
  /** warn.log only: the record's message (may span lines). */
  message: string | null;
}

// warn.log lines name their agent in `data.agentId` when the logger was given data, and
// otherwise only inside their text: the bare task id in a message (`[SUBAGENT] … (a8q1w5n0c)`)
// or another key of the data (`{"source":"<session>-sub-a8q1w5n0c"}`). A record is attributed
// only when exactly one of the session's known task ids occurs in it.
// A Claude Code line (docs/formats.md#claude-code) as an event: its type, a system record's subtype,
// and for messages what they hold (tool calls, tool results, an API error).
const BLOCK_TYPES = `json_extract_string(message, '$.content[*].type')`;
const TRANSCRIPT_EVENT = `CASE
  WHEN type = 'system' THEN coalesce(subtype, 'system')
  WHEN type = 'assistant' AND is_api_error_message THEN 'api_error_message'
  WHEN type = 'assistant' AND list_contains(${BLOCK_TYPES}, 'tool_use') THEN 'tool_use'
  WHEN type = 'user' AND list_contains(${BLOCK_TYPES}, 'tool_result') THEN 'tool_result'
  ELSE type END`;
/** What the line says, for the summary: the fields an on-call engineer reads first. */
const TRANSCRIPT_DATA = `CASE
  WHEN type = 'system' AND subtype = 'api_error' THEN json_object('attempt', retry_attempt, 'maxRetries', max_retries,
    'retryInMs', retry_in_ms, 'status', error->'status', 'connection', coalesce(error->>'$.connection.code', error->>'$.cause.code'),
    'error', coalesce(error->>'formatted', error->>'message', error->>'$.error.error.message'))
  WHEN type = 'system' AND compaction IS NOT NULL THEN json_object('trigger', compact_trigger, 'preTokens', compact_pre_tokens)
  WHEN type = 'system' THEN json_object('durationMs', duration_ms, 'level', level)
  WHEN type IN ('assistant', 'user') THEN json_object(
    'error', CASE WHEN is_api_error_message THEN error->>'$' END, 'status', api_error_status,
    'tools', nullif(list_filter(json_extract_string(message, '$.content[*].name'), lambda x: x IS NOT NULL), []),
    'results', nullif(list_transform(list_filter(json_extract(message, '$.content[*]'), lambda b: b->>'type' = 'tool_result'),
      lambda b: (b->>'tool_use_id') || CASE WHEN b->>'is_error' = 'true' THEN ' error' ELSE '' END), []),
    'text', left(CASE json_type(message, '$.content') WHEN 'VARCHAR' THEN message->>'$.content'
      ELSE array_to_string(list_filter(json_extract_string(message, '$.content[*].text'), lambda x: x IS NOT NULL), ' ') END, 300))
  WHEN type = 'queue-operation' THEN json_object('operation', operation, 'content', left(content->>'$', 300))
  ELSE NULL END`;

const MERGED_SQL = `
WITH known AS (
  SELECT task_id, coalesce(min(agent_id) FILTER (WHERE kind = 'start'), min(agent_id)) AS name
  FROM subagent_lifecycle_fields WHERE session_id = $session AND task_id IS NOT NULL GROUP BY task_id),
merged AS (
  SELECT 0 AS source_rank, 'events' AS source, file_id, line, ts, event, agent_id AS raw_agent, idx, data, NULL::VARCHAR AS message
  FROM events WHERE session_id = $session
  UNION ALL
  SELECT 1, 'warn', w.file_id, w.line, w.ts, '[' || w.level || '] ' || w.category,
    coalesce(
      CASE WHEN json_type(w.data) = 'OBJECT' THEN coalesce(w.data->>'agentId', w.data->>'agent_id') END,
      (SELECT min(k.task_id) FROM known k
       WHERE regexp_matches(w.message || ' ' || coalesce(CAST(w.data AS VARCHAR), ''), '\\b' || k.task_id || '\\b')
       HAVING count(*) = 1)),
    NULL, w.data, w.message
  FROM warn_lines w WHERE w.session_id = $session
  UNION ALL
  SELECT 2, 'errors', file_id, line, ts, 'Error', NULL, idx, data, NULL
  FROM error_records WHERE session_id = $session
  UNION ALL
  SELECT 3, 'transcript', file_id, line, ts, ${TRANSCRIPT_EVENT}, thread_agent_id, NULL, ${TRANSCRIPT_DATA}, NULL
  FROM claude_records WHERE session_id = $session),
tagged AS (SELECT *, ${sqlTaskId('raw_agent')} AS task_id FROM merged)
SELECT t.ts, t.source, f.path AS file, t.line, t.event,
  CASE WHEN t.raw_agent IS NOT NULL THEN coalesce(k.name, t.task_id, t.raw_agent) END AS agent,
  t.task_id, t.idx, t.data, t.message
FROM tagged t LEFT JOIN known k USING (task_id) JOIN input_files f USING (file_id)
ORDER BY t.ts NULLS LAST, t.source_rank, f.path, t.line`;

export async function mergedRows(db: Database, sessionId: string): Promise<MergedRow[]> {
  const table = await db.all(MERGED_SQL, { session: sessionId });
  return table.rows.map((r) => ({
    ts: r.ts as string | null,
    source: r.source as TimelineSource,
    file: r.file as string,
    line: r.line as number,
    event: r.event as string,
    agent: r.agent as string | null,
    taskId: r.task_id as string | null,
    index: r.idx as number | null,
    data: r.data,
    message: r.message as string | null,
  }));
}
