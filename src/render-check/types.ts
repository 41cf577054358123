import type { Finding, BaselineEntry } from '../baseline/types.js';
import type { Severity } from '../checks/define-check.js';

export interface RuleInfo {
  id: string;
  title: string;
  description: string;
  defaultSeverity: Severity;
}

export interface CheckSummary {
  filesScanned: number;
  filesParsed: number;
  types: boolean;
  new: number;
  baselined: number;
  allowed: number;
  info: number;
  stale: number;
  unresolved: number;
  /** Whether this run exits 1. */
  failed: boolean;
}

/** Everything a check renderer needs; findings sorted by file, line, column, rule. */
export interface CheckReport {
  toolVersion: string;
  rules: RuleInfo[];
  findings: Finding[];
  stale: BaselineEntry[];
  summary: CheckSummary;
}

export type CheckRenderer = (report: CheckReport) => string;
