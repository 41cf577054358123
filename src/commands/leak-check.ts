import { homedir } from 'node:os';
import path from 'node:path';
import type { CommandResult } from '../command-result.js';
import { UsageError, type ExitCode } from '../errors.js';
import { allowMatcher, diffSnapshots } from '../leak/diff.js';
import { renderLeakJson } from '../leak/render-json.js';
import { renderLeakText } from '../leak/render-text.js';
import { leakExitCode, type LeakReport } from '../leak/report.js';
import { runCommand } from '../leak/run-command.js';
import { shownPath, takeSnapshot, type Snapshot } from '../leak/snapshot.js';

export interface LeakCheckOptions {
  command: string[];
  watch: string[];
  allow?: string[];
  format?: 'text' | 'json';
}

/**
 * Snapshot the watched dirs, run the command, snapshot again, report the difference.
 * With --format json the command's stdout is sent to our stderr: stdout carries only our
 * JSON document, so `trajaudit leak-check --format json -- npm test | jq` works.
 */
export async function leakCheck(options: LeakCheckOptions): Promise<CommandResult> {
  if (options.command.length === 0) throw new UsageError('leak-check: no command given; put it after --, e.g. -- npm test');
  if (options.watch.length === 0) throw new UsageError('leak-check: no --watch DIR given; name each directory the command must leave as it was, e.g. --watch ~/.sid-code/tasks');
  const format = options.format ?? 'text';
  const dirs = unique(options.watch).map((given) => ({ given, absolute: expandHome(given) }));
  const isAllowed = allowMatcher(options.allow ?? []);

  const before: Snapshot[] = [];
  for (const dir of dirs) before.push(await takeSnapshot(dir.absolute, dir.given));

  const outcome = await runCommand(options.command, format === 'json');

  const after: Snapshot[] = [];
  for (const [i, dir] of dirs.entries()) after.push(await takeSnapshot(dir.absolute, dir.given, before[i]));

  const watched = dirs.map((dir, i) => diffSnapshots(dir.given, before[i], after[i], isAllowed));
  const report: LeakReport = {
    command: options.command,
    exitCode: leakExitCode(outcome.exitCode, watched),
    commandExitCode: outcome.exitCode,
    signal: outcome.signal,
    watched,
  };
  const warnings = dirs.flatMap((dir, i) =>
    [...new Set([...before[i].unreadable, ...after[i].unreadable].map((problem) => `${problem.path ? shownPath(problem.path).replace(/\/$/, '') : '.'}: ${problem.error}`))].map(
      (problem) => `--watch ${dir.given}: cannot list ${problem}; changes inside it are not seen`,
    ),
  );
  return {
    output: format === 'json' ? renderLeakJson(report) : renderLeakText(report),
    // The command's own exit code passes through unchanged (the codes of docs/cli.md#exit-codes cover only our own verdicts).
    exitCode: report.exitCode as ExitCode,
    warnings,
  };
}

function expandHome(dir: string): string {
  if (dir === '~') return homedir();
  if (dir.startsWith('~/')) return path.join(homedir(), dir.slice(2));
  return path.resolve(dir);
}

function unique(dirs: string[]): string[] {
  const seen = new Set<string>();
  return dirs.filter((dir) => {
    const key = expandHome(dir);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
