import { jsonDouble } from '../../db/json-double.js';
import { jsonInteger } from '../../db/json-integer.js';
import { jsonlAdapter, type JsonlFormat, TS_READ, TS_UNREAD } from '../../ingest/adapters/jsonl-adapter.js';

// A Claude Code transcript (main thread or sidechain): one record per line (docs/formats.md#claude-code).
// The keys the tables read are typed at load; message, toolUseResult, error and the other
// structured values stay JSON, exact, for ad-hoc SQL.
const bool = (json: string) => `CASE json_type(${json}) WHEN 'BOOLEAN' THEN ${json}::VARCHAR = 'true' END`;
const compact = 'coalesce(compactMetadata, microcompactMetadata)';

// What the cross-agent views read of a message, taken out of it once at load (so no query parses a
// message): its tool calls, its tool results (their text's flags and start, not the text), the
// hash of its text (a sidechain's first prompt is its call's), and the task notifications it carries.
const BLOCKS = `json_transform(message, '{"content":[{"type":"VARCHAR","id":"VARCHAR","name":"VARCHAR","tool_use_id":"VARCHAR","is_error":"JSON","content":"JSON","input":{"subagent_type":"VARCHAR","description":"VARCHAR","run_in_background":"JSON","prompt":"VARCHAR"}}]}').content`;
/** A JSON value holding text (a string, or a list of text blocks) as one string. */
const textOf = (json: string) => `CASE json_type(${json}) WHEN 'VARCHAR' THEN ${json}->>'$' ELSE array_to_string(json_extract_string(${json}, '$[*].text'), '\n') END`;
const TOOL_CALLS = `list_transform(list_filter(blocks, lambda b: b.type = 'tool_use'), lambda b: {'id': b.id, 'name': b.name,
  'agent_type': b.input.subagent_type, 'description': b.input.description,
  'background': coalesce(b.input.run_in_background::VARCHAR = 'true', false), 'prompt_hash': hash(b.input.prompt)})`;
const TOOL_RESULTS = `list_transform(list_transform(list_filter(blocks, lambda b: b.type = 'tool_result'),
    lambda b: {'tool_use_id': b.tool_use_id, 'is_error': b.is_error::VARCHAR = 'true', 'text': ${textOf('b.content')}}),
  lambda r: {'tool_use_id': r.tool_use_id, 'is_error': r.is_error,
    'sibling_cascade': contains(r.text, 'Sibling tool call errored'),
    'api_error': starts_with(ltrim(r.text), 'API Error'),
    'interrupted': regexp_matches(r.text, 'AbortError|\\[Request interrupted by user'),
    'async_launched': starts_with(ltrim(r.text), 'Async agent launched'),
    'agent_id': nullif(regexp_extract(r.text, 'agentId: ([A-Za-z0-9_-]+)', 1), ''),
    'head': left(ltrim(r.text), 200)})`;
const LINE_TEXT = `CASE json_type(message, '$.content') WHEN 'VARCHAR' THEN message->>'$.content'
  ELSE array_to_string(json_extract_string(message, '$.content[*].text'), '\n') END`;
/** Over `notice_text`: a queue operation's content, a user line's text. */
const NOTIFICATIONS = `CASE WHEN contains(notice_text, '<task-notification>') THEN list_transform(
  regexp_extract_all(notice_text, '<task-notification>[\\s\\S]*?</task-notification>'), lambda n: {
    'task_id': nullif(regexp_extract(n, '<task-id>\\s*([^<\\s]+)\\s*</task-id>', 1), ''),
    'tool_use_id': nullif(regexp_extract(n, '<tool-use-id>\\s*([^<\\s]+)\\s*</tool-use-id>', 1), ''),
    'status': nullif(regexp_extract(n, '<status>\\s*([a-z_]+)\\s*</status>', 1), '')}) END`;

export const transcriptFormat: JsonlFormat = {
  kind: 'claude-transcript',
  table: 'claude_lines',
  columns: {
    type: 'VARCHAR', subtype: 'VARCHAR', sessionId: 'VARCHAR', timestamp: 'VARCHAR', uuid: 'VARCHAR', parentUuid: 'VARCHAR',
    isSidechain: 'JSON', agentId: 'VARCHAR', version: 'VARCHAR', cwd: 'VARCHAR', requestId: 'VARCHAR', message: 'JSON',
    toolUseResult: 'JSON', error: 'JSON', retryAttempt: 'JSON', maxRetries: 'JSON', retryInMs: 'JSON', isApiErrorMessage: 'JSON',
    apiErrorStatus: 'JSON', compactMetadata: 'JSON', microcompactMetadata: 'JSON', content: 'JSON', operation: 'VARCHAR',
    data: 'JSON', parentToolUseID: 'VARCHAR', toolUseID: 'VARCHAR', isCompactSummary: 'JSON', isMeta: 'JSON', level: 'VARCHAR',
    gitBranch: 'VARCHAR', userType: 'VARCHAR', logicalParentUuid: 'VARCHAR', durationMs: 'JSON', summary: 'JSON', leafUuid: 'VARCHAR',
  },
  // Keys no nested value of a transcript names (the line scanner looks for a key's quoted name anywhere in a line).
  envelopeKeys: ['sessionId', 'timestamp', 'uuid', 'parentUuid', 'isSidechain', 'toolUseResult', 'requestId', 'retryAttempt'],
  projection: (source) => `SELECT file_id, line_no, ts, type, subtype, sessionId, uuid, parentUuid, ${bool('isSidechain')}, agentId,
     version, cwd, requestId, message->>'id', message->>'model', message, toolUseResult, error,
     ${jsonInteger('retryAttempt')}, ${jsonInteger('maxRetries')}, ${jsonDouble('retryInMs')}, ${bool('isApiErrorMessage')},
     ${jsonInteger('apiErrorStatus')}, CASE WHEN compactMetadata IS NOT NULL THEN 'compact' WHEN microcompactMetadata IS NOT NULL THEN 'microcompact' END,
     ${compact}->>'trigger', ${jsonInteger(`${compact}->'preTokens'`)}, compactMetadata, microcompactMetadata, content, operation, data,
     parentToolUseID, toolUseID, ${bool('isCompactSummary')}, ${bool('isMeta')}, level, gitBranch, userType, logicalParentUuid,
     ${jsonInteger('durationMs')}, summary, leafUuid, ${TS_UNREAD}, toolUseResult->>'agentId', toolUseResult->>'status',
     CASE WHEN type = 'progress' THEN data->>'agentId' END
   FROM (SELECT *, ${TS_READ} AS ts FROM ${source})`,
  // Read back from the stored rows once their files are read: computed inside read_json's statement,
  // it held every row of the statement at once (over the 192 MB default on transcripts with long tool results).
  derived: {
    tables: ['claude_messages'],
    // Each line's text is taken out of its message once (the hash and the notifications read it).
    insert: (rows) => `INSERT INTO claude_messages (file_id, line, tool_calls, tool_results, text_hash, notifications)
      SELECT file_id, line, nullif(${TOOL_CALLS}, []), nullif(${TOOL_RESULTS}, []), CASE WHEN type IN ('user', 'assistant') THEN hash(line_text) END, ${NOTIFICATIONS}
      FROM (SELECT *, CASE WHEN type = 'queue-operation' THEN ${textOf('content')} WHEN type = 'user' THEN line_text END AS notice_text
        FROM (SELECT *, CASE WHEN type IN ('user', 'assistant') THEN ${BLOCKS} END AS blocks, CASE WHEN type IN ('user', 'assistant') THEN ${LINE_TEXT} END AS line_text
          FROM claude_lines WHERE ${rows} AND type IN ('user', 'assistant', 'queue-operation')))`,
  },
  into: [
    'file_id', 'line', 'ts', 'type', 'subtype', 'session_id', 'uuid', 'parent_uuid', 'is_sidechain', 'agent_id',
    'version', 'cwd', 'request_id', 'message_id', 'model', 'message', 'tool_use_result', 'error',
    'retry_attempt', 'max_retries', 'retry_in_ms', 'is_api_error_message',
    'api_error_status', 'compaction', 'compact_trigger', 'compact_pre_tokens', 'compact_metadata', 'microcompact_metadata', 'content', 'operation', 'data',
    'parent_tool_use_id', 'tool_use_id', 'is_compact_summary', 'is_meta', 'level', 'git_branch', 'user_type', 'logical_parent_uuid',
    'duration_ms', 'summary', 'leaf_uuid', 'ts_unread',
    'result_agent_id', 'result_status', 'progress_agent_id',
  ],
  keepText: false,
  wideRows: true,
  // Claude Code writes some records late (retries at the next flush): a file's first line is no bound on its times.
  timed: false,
};

export const transcriptAdapter = jsonlAdapter(transcriptFormat);
