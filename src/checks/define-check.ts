import type ts from './typescript.cjs';
import type { RuleId, TrajauditConfig } from '../config/schema.js';

export type Severity = 'error' | 'warning' | 'note';
/** How a finding was established: by syntax alone, by the type checker, or flagged because the checker could not tell. */
export type Resolution = 'syntactic' | 'resolved' | 'unresolved';

/** A finding as a rule reports it, before allowlist and baseline matching. */
export interface RawFinding {
  rule: RuleId;
  file: string;
  line: number;
  column: number;
  message: string;
  severity: Severity;
  /** `<module>`, `Class.field`, `Class.method` or `functionName`: stable across line shifts. */
  scope: string;
  /** The normalized callee text, e.g. `this.provider.sendMessageStream`. */
  anchor: string;
  /** Hash of the call's text with what formatters change left out (see `fingerprintText`). */
  textHash: string;
  /** The hashes older versions wrote for this text, where they differ (see `textHashesOf`): their baselines still match. */
  previousTextHashes?: string[];
  resolution: Resolution;
  /** Set by a rule's own allow list. */
  allowReason?: string;
  details?: Record<string, string>;
}

export interface SourceUnit {
  /** Relative to the root, `/`-separated. */
  file: string;
  absPath: string;
  sourceFile: ts.SourceFile;
  isTest: boolean;
}

export interface CheckContext<Options> {
  ts: typeof ts;
  options: Options;
  config: TrajauditConfig;
  /** Present when this rule runs type-aware. */
  checker?: ts.TypeChecker;
  program?: ts.Program;
  report(finding: Omit<RawFinding, 'rule'>): void;
  /** Parse a discovered file the prefilter skipped (e.g. to complete a declaration index). */
  parseFile(file: string): SourceUnit | undefined;
  /** Every discovered file this rule may look at, with its `searchableText` (for cross-file text scans). */
  files: ReadonlyArray<{ file: string; searchText: string; isTest: boolean }>;
  /** The discovered file behind an absolute path (e.g. a program source file), if it is one. */
  fileAt(absPath: string): { file: string; isTest: boolean } | undefined;
}

export interface Check<Id extends RuleId = RuleId, State = unknown> {
  id: Id;
  title: string;
  /** One paragraph for SARIF `fullDescription` and docs. */
  description: string;
  defaultSeverity: Severity;
  needsTypes(options: TrajauditConfig['rules'][Id], typesFlag: boolean): boolean;
  /** Cross-file text work before any parse; its result is handed to every later call. */
  prepare(ctx: CheckContext<TrajauditConfig['rules'][Id]>): State;
  /**
   * The cheap text prefilter: does this file need parsing for this rule? `text` has its escapes
   * decoded (`searchableText`). It must be sound: false only when `visit` could report nothing.
   */
  wants(text: string, state: State): boolean;
  visit(unit: SourceUnit, ctx: CheckContext<TrajauditConfig['rules'][Id]>, state: State): void;
  finish?(ctx: CheckContext<TrajauditConfig['rules'][Id]>, state: State): void;
}

export function defineCheck<Id extends RuleId, State>(check: Check<Id, State>): Check<Id, State> {
  return check;
}
