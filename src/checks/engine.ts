import path from 'node:path';
import { readSourceText } from './read-source.js';
import ts from './typescript.cjs';
import type { RuleId, TrajauditConfig } from '../config/schema.js';
import { UsageError } from '../errors.js';
import type { Check, CheckContext, RawFinding, SourceUnit } from './define-check.js';
import { discoverSourceFiles, unreadable, type UncheckedEntry } from './discover.js';
import { checks } from './index.js';
import { searchableText } from './syntax.js';
import { stackOverflow } from './stack-overflow.js';
import { typeCheckedProgram } from './type-program.js';
import { scopeInventory, type FileScopes } from './scope.js';

export interface EngineOptions {
  root: string;
  config: TrajauditConfig;
  rules: string[];
  types: boolean;
}

export interface EngineResult {
  findings: RawFinding[];
  /** Every discovered file (relative path), so the baseline can tell a renamed file from an existing one. */
  files: Set<string>;
  rulesRun: RuleId[];
  filesParsed: number;
  typesUsed: boolean;
  /** Files (and directories) that could not be read, parsed or walked, with why and what to do. */
  unchecked: UncheckedEntry[];
  /** Lines for stderr that do not fail the run. */
  warnings: string[];
  /** A discovered file's scopes, parsed on demand (the baseline asks only when code moved); undefined when it cannot be parsed. */
  scopesOf: (file: string) => FileScopes | undefined;
}

interface ActiveCheck {
  check: Check;
  ctx: CheckContext<unknown>;
  state: unknown;
  includeTests: boolean;
}

const scriptKinds: Record<string, ts.ScriptKind> = { '.tsx': ts.ScriptKind.TSX, '.ts': ts.ScriptKind.TS, '.mts': ts.ScriptKind.TS, '.cts': ts.ScriptKind.TS };

// No rule reads JSDoc; skipping it makes each parse cheaper.
const parseOptions: ts.CreateSourceFileOptions = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };

/** discover → read → prefilter (text) → parse each wanted file once → every wanting rule visits it. */
export function runChecks(options: EngineOptions): EngineResult {
  const selected = selectChecks(options.rules, options.config);
  const discovered = discoverSourceFiles(options.root, options.config.exclude, options.config.tests);
  const unchecked = new Map<string, UncheckedEntry>(discovered.unchecked.map((entry) => [entry.file, entry]));
  const files = discovered.files.flatMap((entry) => {
    try {
      const text = readSourceText(entry.absPath);
      return [{ ...entry, text, searchText: searchableText(text) }];
    } catch (error) {
      unchecked.set(entry.file, unreadable(entry.file, error));
      return [];
    }
  });
  const byFile = new Map(files.map((entry) => [entry.file, entry]));
  const byAbs = new Map(files.map((entry) => [entry.absPath, entry]));
  const findings: RawFinding[] = [];
  const parsed = new Map<string, SourceUnit>();
  let program: ts.Program | undefined;
  let filesParsed = 0;
  const tooDeep = (file: string, detail: string) =>
    unchecked.set(file, { file, reason: 'nested too deeply to parse', detail, advice: 'split the expression, or exclude the file in the config' });
  const unitOf = (file: string): SourceUnit | undefined => {
    const entry = byFile.get(file);
    if (!entry || unchecked.has(file)) return undefined;
    let unit = parsed.get(file);
    if (!unit) {
      let sourceFile: ts.SourceFile;
      try {
        sourceFile =
          program?.getSourceFile(entry.absPath) ??
          ts.createSourceFile(entry.absPath, entry.text, parseOptions, true, scriptKinds[path.extname(entry.file)]);
      } catch (error) {
        tooDeep(file, stackOverflow(error));
        return undefined;
      }
      unit = { file, absPath: entry.absPath, sourceFile, isTest: entry.isTest };
      filesParsed++;
      // Only the type-aware pass keeps trees (the program holds them anyway); the syntactic pass streams.
      if (program) parsed.set(file, unit);
    }
    return unit;
  };

  const active: ActiveCheck[] = selected.map((check) => {
    const ruleOptions = options.config.rules[check.id];
    const scope = files.filter((entry) => ruleOptions.includeTests || !entry.isTest);
    const ctx: CheckContext<unknown> = {
      ts,
      options: ruleOptions,
      config: options.config,
      files: scope,
      report: (finding) => findings.push({ rule: check.id, ...finding }),
      parseFile: unitOf,
      fileAt: (absPath) => byAbs.get(path.resolve(absPath)),
    };
    return { check, ctx, state: check.prepare(ctx as never), includeTests: ruleOptions.includeTests };
  });

  const wanted = files.map((entry) => active.filter((a) => (a.includeTests || !entry.isTest) && a.check.wants(entry.searchText, a.state)));
  const typed = active.filter((a) => a.check.needsTypes(a.ctx.options as never, options.types));
  if (typed.length > 0) {
    const rootNames = files.filter((_, i) => wanted[i].length > 0).map((entry) => entry.absPath);
    const made = typeCheckedProgram(options.root, rootNames, (absPath) => {
      const entry = byAbs.get(absPath);
      if (entry) tooDeep(entry.file, "TypeScript's binder overflows the stack on it, as tsc does; --types cannot check it");
    });
    program = made.program;
    for (const a of typed) Object.assign(a.ctx, { checker: made.checker, program });
  }

  files.forEach((entry, i) => {
    if (wanted[i].length === 0) return;
    const unit = unitOf(entry.file);
    if (!unit) return;
    for (const a of wanted[i]) {
      try {
        a.check.visit(unit, a.ctx as never, a.state);
      } catch (error) {
        tooDeep(entry.file, stackOverflow(error));
      }
    }
  });
  for (const a of active) a.check.finish?.(a.ctx as never, a.state);
  const parsedForChecks = filesParsed;

  const inventories = new Map<string, FileScopes | undefined>();
  const scopesOf = (file: string): FileScopes | undefined => {
    if (!inventories.has(file)) {
      const unit = unitOf(file);
      inventories.set(file, unit && scopeInventory(unit.sourceFile));
    }
    return inventories.get(file);
  };

  return {
    findings,
    // A file that exists but cannot be read is still there: its baseline entries are not "moved away".
    files: new Set(discovered.files.map((entry) => entry.file)),
    rulesRun: selected.map((c) => c.id),
    filesParsed: parsedForChecks,
    typesUsed: Boolean(program),
    unchecked: [...unchecked.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)),
    warnings: discovered.warnings,
    scopesOf,
  };
}

function selectChecks(requested: string[], config: TrajauditConfig): Check[] {
  const known = new Set<string>(checks.map((c) => c.id));
  const unknown = requested.filter((id) => !known.has(id));
  if (unknown.length) throw new UsageError(`unknown rule "${unknown[0]}" for --rule; known rules: ${[...known].join(', ')}`);
  return (checks as Check[]).filter((c) => (requested.length === 0 || requested.includes(c.id)) && !config.rules[c.id].off);
}
