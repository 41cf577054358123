import type { SchemaPart } from '../db/schema.js';
import type { SourceKind } from '../discover/discover-inputs.js';
import type { DiscoveryWalker } from '../discover/walker.js';
import type { Adapter } from '../ingest/adapters/adapter.js';
import type { CrossAgentPart } from './cross-agent.js';

/**
 * An agent format plugin: one folder under src/formats/ and one line in registry.ts. sid-code's
 * discovery is still the core's walk (src/discover/discover-inputs.ts), with a claim of its own.
 */
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
  /**
   * How a named path is this format's: `first` before sid-code's own layouts are tried, `last`
   * only when none of them is found; null when it is not.
   */
  claim?(walker: DiscoveryWalker, abs: string, isDirectory: boolean): 'first' | 'last' | null;
  walk?(walker: DiscoveryWalker, abs: string, isDirectory: boolean): void;
}
