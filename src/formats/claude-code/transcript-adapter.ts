import { jsonDouble } from '../../db/json-double.js';
import { jsonInteger } from '../../db/json-integer.js';
import { jsonlAdapter, TS_READ, TS_UNREAD } from '../../ingest/adapters/jsonl-adapter.js';

// A Claude Code transcript (main thread or sidechain): one record per line (docs/formats.md#claude-code).
// The keys the tables read are typed at load; message, toolUseResult, error and the other
// structured values stay JSON, exact, for ad-hoc SQL.
const bool = (json: string) => `CASE json_type(${json}) WHEN 'BOOLEAN' THEN ${json}::VARCHAR = 'true' END`;
const compact = 'coalesce(compactMetadata, microcompactMetadata)';

export const transcriptAdapter = jsonlAdapter({
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
     ${jsonInteger('durationMs')}, summary, leafUuid, ${TS_UNREAD}
   FROM (SELECT *, ${TS_READ} AS ts FROM ${source})`,
  into: [
    'file_id', 'line', 'ts', 'type', 'subtype', 'session_id', 'uuid', 'parent_uuid', 'is_sidechain', 'agent_id',
    'version', 'cwd', 'request_id', 'message_id', 'model', 'message', 'tool_use_result', 'error',
    'retry_attempt', 'max_retries', 'retry_in_ms', 'is_api_error_message',
    'api_error_status', 'compaction', 'compact_trigger', 'compact_pre_tokens', 'compact_metadata', 'microcompact_metadata', 'content', 'operation', 'data',
    'parent_tool_use_id', 'tool_use_id', 'is_compact_summary', 'is_meta', 'level', 'git_branch', 'user_type', 'logical_parent_uuid',
    'duration_ms', 'summary', 'leaf_uuid', 'ts_unread',
  ],
  keepText: false,
  // Claude Code writes some records late (retries at the next flush): a file's first line is no bound on its times.
  timed: false,
});
