import type { Finding, BaselineEntry } from '../baseline/types.js';
import type { Severity } from '../checks/define-check.js';
import type { UncheckedEntry } from '../checks/discover.js';

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

/**
 * GitHub places annotations and code-scanning alerts by paths from the repository's top, not from
 * the checked root (`check packages/agent`): the top of the git work tree holding the root (the
 * nearest `.git`, a directory or a file), else the current directory.
 */
export interface PathBase {
  /** Absolute. */
  dir: string;
  /** The checked root from `dir`, `/`-separated; '' when it is `dir`. */
  root: string;
  /** The baseline file, where stale entries live, from `dir`, `/`-separated. */
  baselineFile: string;
  /** The config file, where `allow` entries live (whether or not it exists), from `dir`, `/`-separated. */
  configFile: string;
}

/** Everything a check renderer needs; findings sorted by file, line, column, rule. */
export interface CheckReport {
  toolVersion: string;
  rules: RuleInfo[];
  findings: Finding[];
  stale: BaselineEntry[];
  /** Files (and directories, ending in `/`) that could not be checked: the run exits 2. */
  unchecked: UncheckedEntry[];
  summary: CheckSummary;
  /** Where github and sarif paths start; every finding's `file` stays relative to the checked root. */
  base: PathBase;
  /** Whether stale entries fail the run (`--strict`), so a renderer can say why it failed. */
  strict: boolean;
  /**
   * The command that rewrites this run's baseline, with the root, `--config`, `--baseline`, `--rule`
   * and `--types` as given (`trajaudit check packages/agent --update-baseline`): a bare
   * `trajaudit check --update-baseline` run from the repository's top rewrote another baseline.
   */
  updateCommand: string;
}

export type CheckRenderer = (report: CheckReport) => string;
