import { jsonlAdapter } from './jsonl-adapter.js';

// `ts` is epoch seconds here (formats doc §11); the usage_ledger view keeps the last row per session.
export default jsonlAdapter({
  kind: 'usage-ledger',
  table: 'usage_ledger_rows',
  columns: { ts: 'DOUBLE', sessionId: 'VARCHAR' },
  projection: (source) => `SELECT $file_id, line_no, try(to_timestamp(ts)), sessionId, line::JSON FROM ${source}`,
  keepText: true,
  timed: false,
  rewritten: true,
});
