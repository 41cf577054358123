import { jsonlAdapter } from './jsonl-adapter.js';

// Upserted by session_id; `ts` is epoch seconds (formats doc §12).
export default jsonlAdapter({
  kind: 'session-index',
  table: 'session_index_rows',
  columns: { ts: 'DOUBLE', session_id: 'VARCHAR' },
  projection: (source) => `SELECT $file_id, line_no, try(to_timestamp(ts)), session_id, line::JSON FROM ${source}`,
  keepText: true,
  timed: false,
  rewritten: true,
});
