import type { CheckSummary } from './types.js';

export function summaryLine(s: CheckSummary): string {
  const parts = [`${s.new} new`, `${s.baselined} baselined`, `${s.allowed} allowed`, `${s.info} info`, `${s.stale} stale`];
  if (s.unresolved) parts.push(`${s.unresolved} unresolved`);
  const scanned = `${s.filesScanned} file${s.filesScanned === 1 ? '' : 's'} scanned, ${s.filesParsed} parsed${s.types ? ', type-aware' : ''}`;
  return `${parts.join(', ')} (${scanned})`;
}
