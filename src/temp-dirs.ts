// Every temp dir trajaudit makes (tail copies, row batches, DuckDB's spill) is made here, so that
// a signal can remove what a `finally` would have: they hold copies of input data, as large as
// what a file grew by. cli.ts removes them on SIGINT/SIGTERM; nothing can on SIGKILL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const live = new Set<string>();

export function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  live.add(dir);
  return dir;
}

/** A temp file made outside the temp dir (a database being made beside --db), removed as the dirs are. */
export function trackTempFile(file: string): void {
  live.add(file);
}

export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  live.delete(dir);
}

/** Synchronous: called from a signal handler, which must finish before the signal is re-raised. */
export function removeTempDirs(): void {
  for (const dir of live) {
    try {
      removeTempDir(dir);
    } catch {
      // best effort: the process is about to end by the signal
    }
  }
}
