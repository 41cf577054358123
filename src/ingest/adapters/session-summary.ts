import { jsonDocumentAdapter } from './json-document.js';

// Pretty-printed digest verdict written at SessionEnd (formats doc §8).
export default jsonDocumentAdapter(
  'session-summary',
  'session_summaries',
  ['file_id', 'session_id', 'exit_status', 'abnormal', 'real_errors', 'summary'],
  (doc, text) => [
    typeof doc.exit_status === 'string' ? doc.exit_status : null,
    typeof doc.abnormal === 'boolean' ? doc.abnormal : null,
    typeof doc.real_errors === 'number' ? doc.real_errors : null,
    text,
  ],
);
