import { jsonDouble } from '../../../db/json-double.js';
import { jsonlAdapter } from '../../../ingest/adapters/jsonl-adapter.js';

// Upserted by session_id; `ts` is epoch seconds (docs/formats.md#session-indexjsonl), read as JSON so that only a
// number becomes a time (a string or true is no time: NULL).
export default jsonlAdapter({
  kind: 'session-index',
  table: 'session_index_rows',
  columns: { ts: 'JSON', session_id: 'VARCHAR' },
  projection: (source) => `SELECT file_id, line_no, try(to_timestamp(${jsonDouble('ts')})), session_id, line::JSON FROM ${source}`,
  into: ['file_id', 'line', 'ts', 'session_id', 'record'],
  keepText: true,
  timed: false,
  rewritten: true,
});
