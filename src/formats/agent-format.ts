import type { SchemaPart } from '../db/schema.js';
import type { SourceKind } from '../discover/discover-inputs.js';
import type { DiscoveryWalker, FormatDiscovery } from '../discover/walker.js';
import type { Adapter } from '../ingest/adapters/adapter.js';
import type { CrossAgentPart } from './cross-agent.js';

/** An agent format plugin: one folder under src/formats/ and one line in registry.ts. */
export interface AgentFormat {
  name: string;
  /** The kinds of file it reads (input_files.kind): a database holds this source's data when it holds one of them. */
  kinds: SourceKind[];
  /** Where the agent keeps its data when no path is named (read when it exists), or null. */
  defaultHome(): string | null;
  crossAgent: CrossAgentPart;
  /** The format's tables and views, created after the core's. */
  schema: SchemaPart;
  /** One adapter per kind of file the walk finds. */
  adapters: Adapter[];
  /** Its part of a discovery: the paths it claims and the walk of its layouts, over the one ledger. */
  discovery(walker: DiscoveryWalker): FormatDiscovery;
}
