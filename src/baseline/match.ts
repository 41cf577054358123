import type { RawFinding } from '../checks/define-check.js';
import { entryKey, isBaselineable } from './fingerprint.js';
import type { BaselineEntry, FindingState } from './types.js';

export interface MatchResult {
  states: Map<RawFinding, FindingState>;
  /** Baseline entries (with the unmatched part of their count) that no current finding accounts for. */
  stale: BaselineEntry[];
}

/**
 * Layered matching: exact key; then same file and same text (moved within the file); then same
 * scope, anchor and text in another file (the file renamed, or the function moved to another
 * file). Each layer only sees what the earlier ones left, and counts are consumed one by one, so a
 * violation copied into another file while it stays in its own leaves the copy new.
 */
export function matchBaseline(findings: RawFinding[], entries: BaselineEntry[], rulesRun: Set<string>): MatchResult {
  const remaining = entries.map((entry) => entry.count);
  const states = new Map<RawFinding, FindingState>();
  const open: RawFinding[] = [];
  for (const finding of findings) {
    if (finding.allowReason !== undefined) states.set(finding, 'allowed');
    else if (!isBaselineable(finding)) states.set(finding, 'info');
    else open.push(finding);
  }
  // The layers run with the current text hash, then once more with each hash older versions wrote
  // (`previousTextHashes`), so that a baseline written before the normalization changed still matches.
  const layersFor = (hash: (f: RawFinding) => string | undefined): Array<{ ofEntry: (e: BaselineEntry) => string | undefined; ofFinding: (f: RawFinding) => string | undefined }> => [
    { ofEntry: entryKey, ofFinding: (f) => (hash(f) === undefined ? undefined : entryKey({ ...f, hash: hash(f)! })) },
    { ofEntry: (e) => [e.rule, e.file, e.hash].join('\0'), ofFinding: (f) => (hash(f) === undefined ? undefined : [f.rule, f.file, hash(f)].join('\0')) },
    {
      ofEntry: (e) => [e.rule, e.scope, e.anchor, e.hash].join('\0'),
      ofFinding: (f) => (hash(f) === undefined ? undefined : [f.rule, f.scope, f.anchor, hash(f)].join('\0')),
    },
  ];
  const olderHashes = Math.max(0, ...open.map((f) => f.previousTextHashes?.length ?? 0));
  const layers = [
    ...layersFor((f) => f.textHash),
    ...Array.from({ length: olderHashes }, (_, i) => layersFor((f) => f.previousTextHashes?.[i])).flat(),
  ];
  let unmatched = open;
  for (const layer of layers) {
    const byKey = new Map<string, number[]>();
    entries.forEach((entry, i) => {
      const key = layer.ofEntry(entry);
      if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), i]);
    });
    unmatched = unmatched.filter((finding) => {
      const key = layer.ofFinding(finding);
      const slot = key === undefined ? undefined : byKey.get(key)?.find((i) => remaining[i] > 0);
      if (slot === undefined) return true;
      remaining[slot]--;
      states.set(finding, 'baselined');
      return false;
    });
  }
  for (const finding of unmatched) states.set(finding, 'new');
  const stale = entries
    .map((entry, i) => ({ ...entry, count: remaining[i] }))
    .filter((entry) => entry.count > 0 && rulesRun.has(entry.rule));
  return { states, stale };
}
