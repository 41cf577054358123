import { jsonlAdapter } from './jsonl-adapter.js';

// errors.jsonl: envelope key order differs from events.jsonl, keys do not (formats doc §6).
const SHAPE = `'{"timestamp":"VARCHAR","session_id":"VARCHAR","data":{"phase":"VARCHAR","index":"BIGINT","error":"VARCHAR"}}'`;

export default jsonlAdapter(
  'errors',
  'error_records',
  `SELECT $file_id, $session_id, line_no, TRY_CAST(e.timestamp AS TIMESTAMPTZ), e.session_id,
     e.data.phase, e.data."index", e.data.error, json_extract(line, '$.data')
   FROM (SELECT line_no, line, json_transform(line, ${SHAPE}) AS e FROM staged WHERE verdict = 'valid')`,
  true,
);
