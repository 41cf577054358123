import type { RawFinding } from '../checks/define-check.js';
import type { FileScopes } from '../checks/scope.js';
import { entryKey, isBaselineable } from './fingerprint.js';
import type { BaselineEntry, FindingState } from './types.js';

export interface MatchResult {
  states: Map<RawFinding, FindingState>;
  /** Baseline entries (with the unmatched part of their count) that no current finding accounts for. */
  stale: BaselineEntry[];
}

/** The current tree, as far as matching needs it. */
export interface TreeNow {
  files: Set<string>;
  scopesOf: (file: string) => FileScopes | undefined;
}

/**
 * Layered matching: exact key; then same file and same text (moved within the file); then same
 * scope, anchor and text in another file (the file renamed, or the function moved to another
 * file). Each layer only sees what the earlier ones left, and counts are consumed one by one, so a
 * violation copied into another file while it stays in its own leaves the copy new.
 *
 * A move is taken only where the old place is gone (`tree`): within the file, the entry's scope no
 * longer exists there, or it calls the finding's function (a method extracted from it); otherwise a
 * fix in one function plus a new call of the same text in another passed. Across files, the old
 * file no longer exists, or it no longer has the entry's function; a module-level site (`<module>`,
 * which every file has) therefore moves only with its renamed file. Without `tree`, any place counts.
 */
export function matchBaseline(findings: RawFinding[], entries: BaselineEntry[], rulesRun: Set<string>, tree?: TreeNow): MatchResult {
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
  const layersFor = (hash: (f: RawFinding) => string | undefined): Layer[] => [
    { ofEntry: entryKey, ofFinding: (f) => (hash(f) === undefined ? undefined : entryKey({ ...f, hash: hash(f)! })) },
    {
      ofEntry: (e) => [e.rule, e.file, e.hash].join('\0'),
      ofFinding: (f) => (hash(f) === undefined ? undefined : [f.rule, f.file, hash(f)].join('\0')),
      accepts: (e, f) => !tree || movedWithinFile(e, f, tree),
    },
    {
      ofEntry: (e) => [e.rule, e.scope, e.anchor, e.hash].join('\0'),
      ofFinding: (f) => (hash(f) === undefined ? undefined : [f.rule, f.scope, f.anchor, hash(f)].join('\0')),
      accepts: (e) => !tree || movedOutOfFile(e, tree),
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
      const slot = key === undefined ? undefined : byKey.get(key)?.find((i) => remaining[i] > 0 && (layer.accepts?.(entries[i], finding) ?? true));
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

interface Layer {
  ofEntry: (e: BaselineEntry) => string | undefined;
  ofFinding: (f: RawFinding) => string | undefined;
  /** Whether this entry may account for this finding, once their keys agree. */
  accepts?: (e: BaselineEntry, f: RawFinding) => boolean;
}

/** Same file, same text: the entry's function is gone (renamed, or the call moved out of a removed one), or calls the finding's. */
function movedWithinFile(entry: BaselineEntry, finding: RawFinding, tree: TreeNow): boolean {
  if (entry.scope === finding.scope) return true;
  const now = tree.scopesOf(entry.file);
  if (!now) return false;
  if (!now.scopes.has(entry.scope)) return true;
  const callee = finding.scope.slice(finding.scope.lastIndexOf('.') + 1);
  return now.calls.get(entry.scope)?.has(callee) ?? false;
}

/** Same scope and text in another file: the old file is gone, or no longer has the entry's function. */
function movedOutOfFile(entry: BaselineEntry, tree: TreeNow): boolean {
  if (!tree.files.has(entry.file)) return true;
  if (entry.scope === '<module>') return false;
  const now = tree.scopesOf(entry.file);
  return now !== undefined && !now.scopes.has(entry.scope);
}
