import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { baselineFileName, entriesFor, readBaseline, writeBaseline } from '../baseline/baseline-file.js';
import { fingerprints, isBaselineable } from '../baseline/fingerprint.js';
import { matchBaseline } from '../baseline/match.js';
import type { BaselineEntry, Finding } from '../baseline/types.js';
import type { RawFinding } from '../checks/define-check.js';
import { assertCheckRoot } from '../checks/discover.js';
import { runChecks } from '../checks/engine.js';
import { checks } from '../checks/index.js';
import { enclosingRepoTop } from '../checks/repo-top.js';
import type { CommandResult } from '../command-result.js';
import { configKeyPlace, defaultConfigName } from '../config/load-config.js';
import type { TrajauditConfig } from '../config/schema.js';
import { ExitCode, InputError, UsageError } from '../errors.js';
import { checkRenderers } from '../render-check/index.js';
import { notCheckedText } from '../render-check/not-checked.js';
import type { CheckReport, PathBase } from '../render-check/types.js';
import type { CheckOptions } from './check.js';

/** `check` in this thread (check.ts decides which), with the config check.ts read. */
export async function runCheck(options: CheckOptions, loaded: TrajauditConfig | Promise<TrajauditConfig>): Promise<CommandResult> {
  const format = options.format ?? 'text';
  if (!(format in checkRenderers)) throw new UsageError(`unknown --format "${format}"; use one of ${Object.keys(checkRenderers).join(', ')}`);
  if (options.allowAdditions && !options.updateBaseline) throw new UsageError('--allow-additions only makes sense with --update-baseline');
  assertCheckRoot(options.root);
  const config = await loaded;
  const configFile = path.resolve(options.config ?? path.join(options.root, defaultConfigName));
  const requested = options.rule ?? [];
  // An explicit --rule asks for a rule the config turns off: running it or skipping it would each
  // silently override one of two deliberate settings, so neither is done.
  const turnedOff = requested.find((id) => (config.rules as Record<string, { off: boolean } | undefined>)[id]?.off);
  if (turnedOff) {
    throw new UsageError(
      `--rule ${turnedOff} asks for a rule that ${configKeyPlace({ root: options.root, configPath: options.config }, ['rules', turnedOff, 'off'])} turns off ("rules.${turnedOff}.off": true); remove "off" there, or drop --rule ${turnedOff}`,
    );
  }
  const baselineShown = options.baseline ?? path.join(options.root, baselineFileName);
  const baselinePath = path.resolve(baselineShown);
  const baseline = await readBaseline(baselinePath, checks.map((c) => c.id));
  if (baseline === undefined && options.baseline && !options.updateBaseline) {
    throw new InputError(`baseline file not found: ${options.baseline}; check the path, or create it with --update-baseline --allow-additions`);
  }

  const run = runChecks({ root: options.root, config, rules: requested, types: Boolean(options.types) });
  const rulesRun = new Set<string>(run.rulesRun);
  const raw = [...run.findings].sort(byPosition);
  let entries = baseline ?? [];
  // The entries of a file that was not checked are neither matched nor stale: nothing is known of it now.
  const notChecked = (file: string) => run.unchecked.some((u) => (u.file.endsWith('/') ? file.startsWith(u.file) : file === u.file));
  let matched = matchBaseline(raw, entries.filter((e) => !notChecked(e.file)), rulesRun, run);
  const warnings = [...run.warnings, ...run.unchecked.map((u) => `${u.file}: ${notCheckedText(u)}`)];
  // A guard that checks nothing passes every run; it must at least say so.
  if (run.rulesRun.length === 0) warnings.push(`${configFile} turns every rule off: nothing was checked`);
  else if (run.files.size === 0) {
    warnings.push(`${options.root}: no .ts, .tsx, .mts or .cts file to check (after what git ignores and the config's exclude): nothing was checked`);
  }

  if (options.updateBaseline) {
    if (run.unchecked.length > 0) {
      const { file, reason } = run.unchecked[0];
      throw new InputError(`--update-baseline refuses to rewrite ${baselineShown} while ${file} cannot be checked (${reason})`);
    }
    const additions = raw.filter((f) => matched.states.get(f) === 'new');
    if (additions.length > 0 && !options.allowAdditions) {
      const first = additions[0];
      throw new UsageError(
        `--update-baseline refuses to add ${additions.length} new finding${additions.length === 1 ? '' : 's'} to ${baselineShown} ` +
          `(first: ${first.file}:${first.line}:${first.column} ${first.rule}); fix them, or rerun with --allow-additions to accept them`,
      );
    }
    entries = [...entries.filter((e) => !rulesRun.has(e.rule)), ...entriesFor(raw.filter(isBaselineable))];
    await writeBaseline(baselinePath, entries);
    warnings.push(updateNote(baselineShown, entries, additions.length, matched.stale));
    matched = matchBaseline(raw, entries, rulesRun, run);
  }

  const ids = fingerprints(raw);
  const findings: Finding[] = raw.map((f) => ({ ...f, state: matched.states.get(f)!, fingerprint: ids.get(f)! }));
  const count = (state: Finding['state']) => findings.filter((f) => f.state === state).length;
  const stale = matched.stale.reduce((sum, e) => sum + e.count, 0);
  const failed = count('new') > 0 || (Boolean(options.strict) && stale > 0);
  const report: CheckReport = {
    toolVersion,
    rules: checks.filter((c) => rulesRun.has(c.id)).map(({ id, title, description, defaultSeverity }) => ({ id, title, description, defaultSeverity })),
    findings,
    stale: matched.stale,
    unchecked: run.unchecked,
    base: pathBase(path.resolve(options.root), baselinePath, configFile),
    strict: Boolean(options.strict),
    updateCommand: updateCommand(options),
    summary: {
      filesScanned: run.files.size,
      filesParsed: run.filesParsed,
      types: run.typesUsed,
      new: count('new'),
      baselined: count('baselined'),
      allowed: count('allowed'),
      info: count('info'),
      stale,
      unresolved: findings.filter((f) => f.resolution === 'unresolved').length,
      failed,
    },
  };
  // A file that could not be checked is an input error: the run must not pass without it.
  const exitCode = run.unchecked.length > 0 ? ExitCode.input : failed ? ExitCode.findings : ExitCode.ok;
  return { output: checkRenderers[format](report), exitCode, warnings };
}

const toolVersion = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

function byPosition(a: RawFinding, b: RawFinding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
}

/**
 * Where the output's repository paths start: the top of the git work tree holding the root, found
 * as git finds it (from the directory a linked root leads to), with the root, the baseline and the
 * config as git names them there; outside one, the current directory, with the paths as named.
 * Relative even when the root lies outside the base (`../`): an absolute path would tie the output
 * to this machine.
 */
function pathBase(absRoot: string, baselinePath: string, configPath: string): PathBase {
  const top = enclosingRepoTop(realPath(absRoot));
  const dir = top ?? process.cwd();
  const from = (p: string) => path.relative(dir, p).split(path.sep).join('/');
  if (top === undefined) return { dir, root: from(absRoot), baselineFile: from(baselinePath), configFile: from(configPath) };
  // A baseline or config that is itself a link is tracked by git as that link, where it lies.
  const asTracked = (file: string) => from(path.join(realPath(path.dirname(file)), path.basename(file)));
  return { dir, root: from(realPath(absRoot)), baselineFile: asTracked(baselinePath), configFile: asTracked(configPath) };
}

/** The path through every link; for a file not written yet (a new baseline), its directory's. */
function realPath(abs: string): string {
  try {
    return realpathSync.native(abs);
  } catch {
    const dir = path.dirname(abs);
    return dir === abs ? abs : path.join(realPath(dir), path.basename(abs));
  }
}

/** This run's command with --update-baseline: the same root, config, baseline and findings (rules, type checker). */
function updateCommand(options: CheckOptions): string {
  const args = [
    ...(options.root === '.' ? [] : [options.root]),
    ...(options.config !== undefined ? ['--config', options.config] : []),
    ...(options.baseline !== undefined ? ['--baseline', options.baseline] : []),
    ...(options.rule ?? []).flatMap((id) => ['--rule', id]),
    ...(options.types ? ['--types'] : []),
  ];
  return ['trajaudit check', ...args.map(shellWord), '--update-baseline'].join(' ');
}

// Quoted for a POSIX shell where it needs to be, so that the hint can be pasted as it is.
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function updateNote(file: string, entries: BaselineEntry[], added: number, stale: BaselineEntry[]): string {
  const total = entries.reduce((sum, e) => sum + e.count, 0);
  const dropped = stale.reduce((sum, e) => sum + e.count, 0);
  return `baseline ${file} rewritten: ${total} finding${total === 1 ? '' : 's'} recorded, ${added} added, ${dropped} stale dropped`;
}
