import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { InputError } from '../errors.js';
import { signalTree } from './descendants.js';

export interface CommandOutcome {
  /** The child's exit code, or 128 + signal number when a signal ended it (shell convention). */
  exitCode: number;
  signal: NodeJS.Signals | null;
}

/**
 * Runs the command with stdin and stderr inherited. Its stdout goes to our stdout, or to our
 * stderr when `stdoutToStderr` is set, so that `--format json` leaves stdout to our one JSON
 * document. Without a shell: the words after `--` are the argv.
 */
export function runCommand(argv: string[], stdoutToStderr: boolean): Promise<CommandOutcome> {
  const [file, ...args] = argv;
  return new Promise((resolve, reject) => {
    // Ctrl-C reaches the child through the terminal's process group; we stay alive to report
    // what it left behind. Signals aimed at us alone are passed on, to the processes it started too.
    // Listened for before the child starts: a signal that came between its start and the listeners
    // (a busy machine) ended leak-check by the default action, with no report and the child left running.
    let child: ChildProcess | undefined;
    const forward = (signal: NodeJS.Signals) => {
      if (signal !== 'SIGINT' && child?.pid !== undefined) signalTree(child.pid, signal);
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, forward);
    child = spawn(file, args, { stdio: ['inherit', stdoutToStderr ? 2 : 'inherit', 'inherit'] });
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      for (const signal of signals) process.off(signal, forward);
      finish();
    };
    child.on('error', (error: NodeJS.ErrnoException) =>
      settle(() => reject(startError(file, error))),
    );
    child.on('close', (code, signal) =>
      settle(() => resolve({ exitCode: signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 0), signal })),
    );
  });
}

function startError(file: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ENOENT') return new InputError(`cannot run '${file}': command not found; check the name and PATH`);
  if (error.code === 'EACCES') return new InputError(`cannot run '${file}': permission denied; is it executable?`);
  return new InputError(`cannot run '${file}': ${error.message}`);
}
