import type { SourceKind } from '../../discover/discover-inputs.js';
import { AGENT_FORMATS } from '../../formats/registry.js';
import type { Adapter } from './adapter.js';

/** Each kind of file's adapter, from every agent format (src/formats/registry.ts). */
export const adapters = Object.fromEntries(AGENT_FORMATS.flatMap((f) => f.adapters).map((a) => [a.kind, a])) as Record<SourceKind, Adapter>;
