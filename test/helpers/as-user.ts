// Permissions bind root only through another user: as root, the CLI runs as nobody (setpriv)
// when it can, so that a mode of 000 means what it means to a user.
import { spawnSync } from 'node:child_process';
import { CLI, type CliRun } from './run-cli.js';

export const NOBODY = 65534;
export const isRoot = process.getuid?.() === 0;
const asUser = isRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];

/** The built CLI as a user permissions bind (nobody when this is root), from `cwd`. */
export function runAsUser(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliRun {
  const [command, ...rest] = [...asUser, process.execPath, CLI, ...args];
  const run = spawnSync(command, rest, { cwd: options.cwd ?? '/', env: { ...process.env, DUCKDB_JE_MALLOC_CONF: undefined, NO_COLOR: '1', TZ: 'UTC', COLUMNS: '', ...options.env }, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Whether runAsUser can run at all (setpriv present and allowed). */
export const canDropRoot = !isRoot || runAsUser(['--version']).code === 0;
