import { createHash } from 'node:crypto';
import type { RawFinding } from '../checks/define-check.js';
import type { BaselineEntry } from './types.js';

export function entryKey(entry: Pick<BaselineEntry, 'rule' | 'file' | 'scope' | 'anchor' | 'hash'>): string {
  return [entry.rule, entry.file, entry.scope, entry.anchor, entry.hash].join('\0');
}

export function findingKey(finding: RawFinding): string {
  return entryKey({ ...finding, hash: finding.textHash });
}

/** Fingerprints for SARIF `partialFingerprints` and JSON: key hash plus its occurrence number in line order. */
export function fingerprints(findings: RawFinding[]): Map<RawFinding, string> {
  const seen = new Map<string, number>();
  const result = new Map<RawFinding, string>();
  for (const finding of findings) {
    const key = findingKey(finding);
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    result.set(finding, `${createHash('sha256').update(key).digest('hex').slice(0, 16)}:${occurrence}`);
  }
  return result;
}

/** True for findings that can fail a run and therefore live in the baseline. */
export function isBaselineable(finding: RawFinding): boolean {
  return finding.severity !== 'note' && finding.allowReason === undefined;
}
