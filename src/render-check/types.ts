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
  /** The baseline file as the user named it (or the default beside the root): where stale entries live. */
  baselineFile: string;
  /** Whether stale entries fail the run (`--strict`), so a renderer can say why it failed. */
  strict: boolean;
}

export type CheckRenderer = (report: CheckReport) => string;
