import { jsonInteger } from '../../../db/json-integer.js';
import { jsonlAdapter, TS_READ, TS_UNREAD } from '../../../ingest/adapters/jsonl-adapter.js';
import { insertEventFields } from '../event-fields.js';

// The envelope (docs/formats.md#the-envelope) is read per line; the hot payload fields come from a second,
// smaller parse of `data`. `agent_id` is the StreamPhase/Subagent spelling, `agentId`
// RetryTelemetry's. `index` is read as JSON, so that only an integer becomes idx.
const HOT = `'{"index":"JSON","agent_id":"VARCHAR","agentId":"VARCHAR","type":"VARCHAR","phase":"VARCHAR"}'`;

export default jsonlAdapter({
  kind: 'events',
  table: 'events',
  columns: { event: 'VARCHAR', session_id: 'VARCHAR', timestamp: 'VARCHAR', cwd: 'VARCHAR', data: 'JSON' },
  projection: (source) => `SELECT file_id, file_session_id, line_no, ts, event, session_id, cwd,
     ${jsonInteger('h."index"')}, coalesce(h.agent_id, h.agentId), h.type, h.phase, data, ${TS_UNREAD}
   FROM (SELECT *, ${TS_READ} AS ts, json_transform(data, ${HOT}) AS h FROM ${source})`,
  into: ['file_id', 'session_id', 'line', 'ts', 'event', 'envelope_session_id', 'cwd', 'idx', 'agent_id', 'type', 'phase', 'data', 'ts_unread'],
  // The typed payload fields (event-fields.ts), read back from the stored rows: computed inside
  // read_json's statement, they made it 1.9× slower and outgrew the 192 MB default two files at a time.
  derived: { tables: ['event_fields', 'retry_and_subagent_fields', 'stream_evidence_fields', 'untagged_stream_fields'], insert: insertEventFields },
  keepText: false,
  timed: true,
});
