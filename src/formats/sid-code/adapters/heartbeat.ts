import { jsonDocumentAdapter } from '../../../ingest/adapters/json-document.js';

// Rewritten every 10 s, deleted at a clean SessionEnd: present only for hung or killed sessions
// (docs/formats.md#heartbeattxt).
export default jsonDocumentAdapter('heartbeat', 'heartbeats', ['file_id', 'session_id', 'ts', 'record'], (doc, text) => [
  typeof doc.ts === 'string' ? doc.ts : null,
  text,
]);
