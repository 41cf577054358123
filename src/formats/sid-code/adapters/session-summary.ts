import { jsonDocumentAdapter } from '../../../ingest/adapters/json-document.js';

// Pretty-printed digest verdict written at SessionEnd (docs/formats.md#session-summaryjson). A real_errors that is not
// an integer (1.5, "2") is no count: NULL, as the views give (src/db/json-integer.ts).
export default jsonDocumentAdapter(
  'session-summary',
  'session_summaries',
  ['file_id', 'session_id', 'exit_status', 'abnormal', 'real_errors', 'summary'],
  (doc, text) => [
    typeof doc.exit_status === 'string' ? doc.exit_status : null,
    typeof doc.abnormal === 'boolean' ? doc.abnormal : null,
    Number.isInteger(doc.real_errors) ? doc.real_errors : null,
    text,
  ],
);
