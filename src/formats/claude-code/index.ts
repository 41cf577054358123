import type { AgentFormat } from '../agent-format.js';
import { agentMetaAdapter } from './agent-meta-adapter.js';
import { claudeCodeCrossAgent } from './cross-agent.js';
import { claudeCodeHome } from './default-home.js';
import { claimClaudeCode, walkClaudeCode } from './discover.js';
import { claudeCodeSchema } from './schema.js';
import { transcriptAdapter } from './transcript-adapter.js';

export const claudeCode: AgentFormat = {
  name: 'claude-code',
  kinds: ['claude-transcript', 'claude-agent-meta'],
  defaultHome: claudeCodeHome,
  crossAgent: claudeCodeCrossAgent,
  schema: claudeCodeSchema,
  adapters: [transcriptAdapter, agentMetaAdapter],
  discovery: (walker) => ({ claim: (abs, dir) => claimClaudeCode(walker, abs, dir), walk: (abs, dir) => walkClaudeCode(walker, abs, dir) }),
};
