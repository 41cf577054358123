// Every agent format trajaudit reads: a new one is its folder and one line here.
import { BASE_SCHEMA, Schema } from '../db/schema.js';
import type { AgentFormat } from './agent-format.js';
import { claudeCode } from './claude-code/index.js';
import { crossAgentSchema } from './cross-agent.js';
import { sidCode } from './sid-code/index.js';

export const AGENT_FORMATS: AgentFormat[] = [sidCode, claudeCode];

/** The schema of every database: the core's, each format's, then the cross-agent views over them all. */
export const SCHEMA = new Schema([
  BASE_SCHEMA,
  ...AGENT_FORMATS.map((f) => f.schema),
  crossAgentSchema(AGENT_FORMATS.map((f) => f.crossAgent)),
]);
