import type { RawFinding } from '../checks/define-check.js';

/** `info` is a note-level finding (a stateful construction inside a function): listed, never failing, never baselined. */
export type FindingState = 'new' | 'baselined' | 'allowed' | 'info';

export interface Finding extends RawFinding {
  state: FindingState;
  /** Stable across line shifts and reformatting: hash of rule, file, scope, anchor, text, plus the occurrence number. */
  fingerprint: string;
}

/** One line of trajaudit-baseline.json: no line numbers, so moving code does not churn it. */
export interface BaselineEntry {
  rule: string;
  file: string;
  scope: string;
  anchor: string;
  hash: string;
  count: number;
}
