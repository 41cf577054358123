import { jsonDocumentAdapter } from '../../ingest/adapters/json-document.js';

// `agent-<id>.meta.json` beside a sidechain: the subagent's type and, in newer builds, the launching call.
const text = (value: unknown) => (typeof value === 'string' ? value : null);

export const agentMetaAdapter = jsonDocumentAdapter(
  'claude-agent-meta',
  'claude_agent_meta',
  ['file_id', 'session_id', 'agent_type', 'description', 'tool_use_id', 'parent_agent_id', 'meta'],
  (doc, json) => [text(doc.agentType), text(doc.description), text(doc.toolUseId), text(doc.parentAgentId), json],
);
