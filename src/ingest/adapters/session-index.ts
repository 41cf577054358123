import { jsonlAdapter } from './jsonl-adapter.js';

// Upserted by session_id; `ts` is epoch seconds (formats doc §12).
export default jsonlAdapter(
  'session-index',
  'session_index_rows',
  `SELECT $file_id, line_no, to_timestamp(TRY_CAST(line->>'ts' AS DOUBLE)), line->>'session_id', line::JSON
   FROM staged WHERE verdict = 'valid'`,
  false,
);
