import { jsonlAdapter } from './jsonl-adapter.js';

// `ts` is epoch seconds here (formats doc §11); the usage_ledger view keeps the last row per session.
export default jsonlAdapter(
  'usage-ledger',
  'usage_ledger_rows',
  { shape: '{"ts":"DOUBLE","sessionId":"VARCHAR"}', keepValidText: true },
  `SELECT $file_id, line_no, to_timestamp(e.ts), e.sessionId, line::JSON FROM staged WHERE verdict = 'valid'`,
  false,
);
