import type { BaselineEntry } from '../baseline/types.js';
import type { CheckReport } from './types.js';

/** A stale baseline entry named as the baseline holds it, and what to do; under --strict, why the run failed. */
export function staleEntryMessage(e: BaselineEntry, report: Pick<CheckReport, 'strict' | 'updateCommand'>): string {
  const what = `stale baseline entry (fixed or gone): ${e.rule} ${e.file} ${e.scope} ${e.anchor}${e.count > 1 ? ` ×${e.count}` : ''}`;
  const todo = `run ${report.updateCommand} to drop it`;
  return report.strict ? `${what}; --strict fails the run on stale entries: ${todo}` : `${what}; ${todo}`;
}
