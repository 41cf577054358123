import type { BaselineEntry } from '../baseline/types.js';

/** A stale baseline entry named as the baseline holds it, and what to do; under --strict, why the run failed. */
export function staleEntryMessage(e: BaselineEntry, strict: boolean): string {
  const what = `stale baseline entry (fixed or gone): ${e.rule} ${e.file} ${e.scope} ${e.anchor}${e.count > 1 ? ` ×${e.count}` : ''}`;
  const todo = `run trajaudit check --update-baseline to drop it`;
  return strict ? `${what}; --strict fails the run on stale entries: ${todo}` : `${what}; ${todo}`;
}
