import { jsonDouble } from '../../../db/json-double.js';
import { jsonlAdapter } from '../../../ingest/adapters/jsonl-adapter.js';

// `ts` is epoch seconds here (docs/formats.md#usage-ledgerjsonl); the usage_ledger view keeps the last row per session.
// It is read as JSON so that only a number becomes a time (a string or true is no time: NULL).
export default jsonlAdapter({
  kind: 'usage-ledger',
  table: 'usage_ledger_rows',
  columns: { ts: 'JSON', sessionId: 'VARCHAR' },
  projection: (source) => `SELECT file_id, line_no, try(to_timestamp(${jsonDouble('ts')})), sessionId, line::JSON FROM ${source}`,
  into: ['file_id', 'line', 'ts', 'session_id', 'record'],
  keepText: true,
  timed: false,
  rewritten: true,
});
