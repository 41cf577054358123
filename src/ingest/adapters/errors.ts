import { jsonInteger } from '../../db/json-integer.js';
import { jsonlAdapter } from './jsonl-adapter.js';

// errors.jsonl: envelope key order differs from events.jsonl, keys do not (formats doc §6).
const DATA = `'{"phase":"VARCHAR","index":"JSON","error":"VARCHAR"}'`;

export default jsonlAdapter({
  kind: 'errors',
  table: 'error_records',
  columns: { timestamp: 'VARCHAR', session_id: 'VARCHAR', data: 'JSON' },
  projection: (source) => `SELECT $file_id, $session_id, line_no, TRY_CAST(timestamp AS TIMESTAMPTZ), session_id, d.phase, ${jsonInteger('d."index"')}, d.error, data
   FROM (SELECT *, json_transform(data, ${DATA}) AS d FROM ${source})`,
  keepText: false,
  timed: true,
});
