import type { DirReport } from './diff.js';

export interface LeakReport {
  command: string[];
  /** What trajaudit exits with (see leakExitCode). */
  exitCode: number;
  commandExitCode: number;
  signal: string | null;
  watched: DirReport[];
}

export interface LeakSummary {
  dirs: number;
  leakedDirs: number;
  added: number;
  changed: number;
  removed: number;
  allowed: number;
  leaked: boolean;
}

/** The command's own failure wins; else 1 for a leak; else 0. */
export function leakExitCode(commandExitCode: number, watched: DirReport[]): number {
  if (commandExitCode !== 0) return commandExitCode;
  return watched.some((dir) => dir.leaked) ? 1 : 0;
}

export function summarize(watched: DirReport[]): LeakSummary {
  const total = (pick: (dir: DirReport) => number) => watched.reduce((sum, dir) => sum + pick(dir), 0);
  const leakedDirs = watched.filter((dir) => dir.leaked).length;
  return {
    dirs: watched.length,
    leakedDirs,
    added: total((dir) => dir.added.length),
    changed: total((dir) => dir.changed.length),
    removed: total((dir) => dir.removed.length),
    allowed: total((dir) => dir.allowed.length),
    leaked: leakedDirs > 0,
  };
}
