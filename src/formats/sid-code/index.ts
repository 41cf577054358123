import type { AgentFormat } from '../agent-format.js';
import errors from './adapters/errors.js';
import events from './adapters/events.js';
import heartbeat from './adapters/heartbeat.js';
import sessionIndex from './adapters/session-index.js';
import sessionSummary from './adapters/session-summary.js';
import taskOutputs from './adapters/task-outputs.js';
import usageLedger from './adapters/usage-ledger.js';
import warnLog from './adapters/warn-log.js';
import { sidCodeCrossAgent } from './cross-agent.js';
import { defaultHome } from './default-home.js';
import { SidCodeDiscovery } from './discover.js';
import { sidCodeSchema } from './schema.js';

export const sidCode: AgentFormat = {
  name: 'sid-code',
  kinds: ['events', 'errors', 'warn-log', 'session-summary', 'heartbeat', 'usage-ledger', 'session-index', 'task-output'],
  defaultHome,
  crossAgent: sidCodeCrossAgent,
  schema: sidCodeSchema,
  discovery: (walker) => new SidCodeDiscovery(walker),
  adapters: [events, errors, warnLog, sessionSummary, heartbeat, usageLedger, sessionIndex, taskOutputs],
};
