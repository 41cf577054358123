import { defaultHome } from '../../discover/default-home.js';
import type { AgentFormat } from '../agent-format.js';
import { sidCodeCrossAgent } from './cross-agent.js';

export const sidCode: AgentFormat = {
  name: 'sid-code',
  kinds: ['events', 'errors', 'warn-log', 'session-summary', 'heartbeat', 'usage-ledger', 'session-index', 'task-output'],
  defaultHome,
  crossAgent: sidCodeCrossAgent,
};
