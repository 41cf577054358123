import { jsonlAdapter } from './jsonl-adapter.js';

// errors.jsonl: envelope key order differs from events.jsonl, keys do not (formats doc §6).
const SHAPE = '{"timestamp":"VARCHAR","session_id":"VARCHAR","data":"JSON"}';
const DATA = `'{"phase":"VARCHAR","index":"BIGINT","error":"VARCHAR"}'`;

export default jsonlAdapter(
  'errors',
  'error_records',
  { shape: SHAPE, keepValidText: false },
  `SELECT $file_id, $session_id, line_no, TRY_CAST(e.timestamp AS TIMESTAMPTZ), e.session_id, d.phase, d."index", d.error, e.data
   FROM (SELECT line_no, e, json_transform(e.data, ${DATA}) AS d FROM staged WHERE verdict = 'valid')`,
  true,
);
