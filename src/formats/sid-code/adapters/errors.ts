import { jsonInteger } from '../../../db/json-integer.js';
import { jsonlAdapter, TS_READ, TS_UNREAD } from '../../../ingest/adapters/jsonl-adapter.js';

// errors.jsonl: envelope key order differs from events.jsonl, keys do not (docs/formats.md#errorsjsonl).
const DATA = `'{"phase":"VARCHAR","index":"JSON","error":"VARCHAR"}'`;

export default jsonlAdapter({
  kind: 'errors',
  table: 'error_records',
  columns: { timestamp: 'VARCHAR', session_id: 'VARCHAR', data: 'JSON' },
  projection: (source) => `SELECT file_id, file_session_id, line_no, ts, session_id, d.phase, ${jsonInteger('d."index"')}, d.error, data, ${TS_UNREAD}
   FROM (SELECT *, ${TS_READ} AS ts, json_transform(data, ${DATA}) AS d FROM ${source})`,
  into: ['file_id', 'session_id', 'line', 'ts', 'envelope_session_id', 'phase', 'idx', 'error', 'data', 'ts_unread'],
  keepText: false,
  timed: true,
});
