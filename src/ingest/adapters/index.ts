import type { SourceKind } from '../../discover/discover-inputs.js';
import type { Adapter } from './adapter.js';
import errors from './errors.js';
import events from './events.js';
import heartbeat from './heartbeat.js';
import sessionIndex from './session-index.js';
import sessionSummary from './session-summary.js';
import taskOutputs from './task-outputs.js';
import usageLedger from './usage-ledger.js';
import warnLog from './warn-log.js';

export const adapters = {
  events,
  errors,
  'warn-log': warnLog,
  'session-summary': sessionSummary,
  heartbeat,
  'usage-ledger': usageLedger,
  'session-index': sessionIndex,
  'task-output': taskOutputs,
} satisfies Record<SourceKind, Adapter>;
