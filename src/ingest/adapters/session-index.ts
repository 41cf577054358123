import { jsonlAdapter } from './jsonl-adapter.js';

// Upserted by session_id; `ts` is epoch seconds (formats doc §12).
export default jsonlAdapter(
  'session-index',
  'session_index_rows',
  { shape: '{"ts":"DOUBLE","session_id":"VARCHAR"}', keepValidText: true },
  `SELECT $file_id, line_no, to_timestamp(e.ts), e.session_id, line::JSON FROM staged WHERE verdict = 'valid'`,
  false,
);
