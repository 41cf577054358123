import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = path.join(REPO, 'dist/cli.js');
export const FIXTURES = path.join(REPO, 'fixtures');

export interface CliRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Spawns the built binary as a user would (NO_COLOR, TZ=UTC, no TTY, no COLUMNS), from `cwd` (default: repo). */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string; nodeArgs?: string[]; timeoutMs?: number } = {}): CliRun {
  const result = spawnSync(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
    cwd: options.cwd ?? REPO,
    // No COLUMNS from the shell running the tests: tables stay unwrapped unless a test sets it.
    env: { ...process.env, NO_COLOR: '1', TZ: 'UTC', COLUMNS: '', ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    // A run that would hang is killed (code null) rather than blocking the test past its timeout.
    timeout: options.timeoutMs,
  });
  return { stdout: result.stdout, stderr: result.stderr, code: result.status };
}

/** Runs the CLI with --format json and parses stdout; fails loudly with stderr when it is not JSON. */
export function runJson<T = unknown>(args: string[], options: Parameters<typeof runCli>[1] = {}): { value: T; run: CliRun } {
  const run = runCli([...args, '--format', 'json'], options);
  try {
    return { value: JSON.parse(run.stdout) as T, run };
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\nstdout: ${run.stdout.slice(0, 2000)}\nstderr: ${run.stderr}`);
  }
}

/** A fresh temp dir, removed by the returned cleanup. */
export function tempDir(prefix = 'trajaudit-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A temp dir holding `files` (relative path → text), their directories made. */
export function fileTree(prefix: string, files: Record<string, string>): { dir: string; cleanup: () => void } {
  const t = tempDir(prefix);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(t.dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(t.dir, rel), text);
  }
  return t;
}
