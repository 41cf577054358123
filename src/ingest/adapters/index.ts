import type { SourceKind } from '../../discover/discover-inputs.js';
import { AGENT_FORMATS } from '../../formats/registry.js';
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
  ...Object.fromEntries(AGENT_FORMATS.flatMap((f) => f.adapters ?? []).map((a) => [a.kind, a])),
} as Record<SourceKind, Adapter>;
