import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = path.join(REPO, 'dist/cli.js');
export const FIXTURES = path.join(REPO, 'fixtures');

export interface CliRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
}

/** What every run sees unless a test says otherwise: no colour, UTC, no COLUMNS from the shell running the tests. */
const USER_ENV = { NO_COLOR: '1', TZ: 'UTC', COLUMNS: '', CLAUDE_CONFIG_DIR: '/nonexistent/claude-config' };

type Main = typeof import('../../src/main.js').main;
let loaded: Promise<Main> | undefined;

/**
 * Runs the built CLI's main() in this process, as the binary would run it from `cwd` (default:
 * the repo) with `env` over the user's environment, stdout and stderr no TTY. Runs one at a
 * time: the working directory and the environment are the process's own.
 */
export async function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
  loaded ??= import(pathToFileURL(path.join(REPO, 'dist/main.js')).href).then((m: { main: Main }) => m.main);
  const main = await loaded;
  const env: Record<string, string> = { ...USER_ENV, ...options.env };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const cwd = process.cwd();
  const stdout: string[] = [];
  const stderr: string[] = [];
  Object.assign(process.env, env);
  try {
    process.chdir(options.cwd ?? REPO);
    const code = await main(args, {
      stdout: { write: (text) => void stdout.push(text), isTTY: false },
      stderr: { write: (text) => void stderr.push(text), isTTY: false },
    });
    return { stdout: stdout.join(''), stderr: stderr.join(''), code };
  } finally {
    process.chdir(cwd);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * Spawns the built binary as a user would (NO_COLOR, TZ=UTC, no TTY, no COLUMNS), from `cwd`
 * (default: repo): for what only a process shows (signals, exit codes of the binary, the
 * environment or Node flags at start-up, stdin, stdout descriptors, a hang to time out).
 */
export function runBinary(args: string[], options: RunOptions & { input?: string; nodeArgs?: string[]; timeoutMs?: number } = {}): CliRun {
  const result = spawnSync(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], {
    cwd: options.cwd ?? REPO,
    // The allocator of the test's own process (vitest.config.ts) is not the user's: the binary picks its own.
    env: { ...process.env, DUCKDB_JE_MALLOC_CONF: undefined, ...USER_ENV, ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    // A run that would hang is killed (code null) rather than blocking the test past its timeout.
    timeout: options.timeoutMs,
  });
  return { stdout: result.stdout, stderr: result.stderr, code: result.status };
}

/** Parses a run's stdout as JSON; fails loudly with stderr when it is not JSON. */
function parsed<T>(run: CliRun): { value: T; run: CliRun } {
  try {
    return { value: JSON.parse(run.stdout) as T, run };
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\nstdout: ${run.stdout.slice(0, 2000)}\nstderr: ${run.stderr}`);
  }
}

/** Runs the CLI with --format json and parses stdout. */
export async function runJson<T = unknown>(args: string[], options: RunOptions = {}): Promise<{ value: T; run: CliRun }> {
  return parsed<T>(await runCli([...args, '--format', 'json'], options));
}

/** runJson through the spawned binary. */
export function runBinaryJson<T = unknown>(args: string[], options: Parameters<typeof runBinary>[1] = {}): { value: T; run: CliRun } {
  return parsed<T>(runBinary([...args, '--format', 'json'], options));
}

const fixtureDbs = new Map<string, Promise<string>>();

/**
 * `--db FILE` of fixtures/<name>, loaded once per test worker: for read-only commands (query, sql,
 * timeline, sources), whose answers over it are those over the fixture's paths, without loading
 * the fixture again for each. Never load into it.
 */
export async function fixtureDb(name: string): Promise<string[]> {
  let made = fixtureDbs.get(name);
  if (!made) {
    made = (async () => {
      // Removed with the run's temp dir (temp-root.ts): a worker may end without its 'exit' handlers.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `trajaudit-fixture-${name}-`));
      const db = path.join(dir, `${name}.duckdb`);
      const run = await runCli(['load', path.join(FIXTURES, name), '--db', db, '--quiet']);
      if (run.code !== 0) throw new Error(`loading fixtures/${name} failed (exit ${run.code}): ${run.stderr}`);
      return db;
    })();
    fixtureDbs.set(name, made);
  }
  return ['--db', await made];
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
