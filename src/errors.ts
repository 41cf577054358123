import os from 'node:os';

/** Exit codes of the contract in docs/cli.md#exit-codes: computed only in cli.ts via exitCodeFor. */
export const ExitCode = { ok: 0, findings: 1, input: 2, internal: 3 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The user asked for something that cannot work: bad flag, unknown query, ambiguous session. */
export class UsageError extends Error {
  readonly exitCode = ExitCode.input;
}

/** Input or config is wrong: missing path, unreadable file, bad config key, busy database. */
export class InputError extends Error {
  readonly exitCode = ExitCode.input;
}

/** DuckDB ran out of memory: the machine's state, said with the file being read when there is one. */
export class OutOfMemoryError extends InputError {
  constructor(readonly detail: string, readonly advice: string, readonly file?: string) {
    super(`DuckDB ran out of memory${file ? ` while reading ${file}` : ''} (${detail}); ${file ? 'the files committed before it are kept; ' : ''}${advice}`);
  }

  /** The same error, naming the file that was being read. */
  whileReading(file: string): OutOfMemoryError {
    return this.file ? this : new OutOfMemoryError(this.detail, this.advice, file);
  }
}

/**
 * An error that ended a command after it had warnings to give (a report's unreadable lines, then
 * a failed --out): cli.ts says them before the error, as it would have after a success.
 */
export class FailedAfterWarnings extends Error {
  constructor(readonly error: unknown, readonly warnings: string[]) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** A bug in trajaudit itself. */
export class InternalError extends Error {
  readonly exitCode = ExitCode.internal;
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError || error instanceof InputError) return error.exitCode;
  return ExitCode.internal;
}

// A full disk (or quota), a file-size limit, too few file descriptors or a deleted working
// directory is the machine's state, not a bug: one line and exit 2, as DuckDB's out of memory is,
// wherever it surfaces (DuckDB writing the database, its log or its spill; Node writing rows or a
// grown file's tail to the temp dir; `--out`; a module import).
const NO_SPACE = /No space left on device|Disk quota exceeded/i;
// ulimit -f, or FAT32/exFAT's 4 GiB cap on a big --db; Node ignores SIGXFSZ, so the write fails with EFBIG.
const TOO_LARGE = /File too large/i;
const TOO_MANY_FILES = /Too many open files/i;

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/** What the machine lacks, and what to do about it; null for any other error. */
function machineState(error: unknown): { cause: string; advice: string } | null {
  if (error instanceof InputError || error instanceof UsageError) return null; // said already
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  const text = errorText(error);
  const elsewhere = `put the --db file, --out or the temp directory (TMPDIR, now ${os.tmpdir()}) elsewhere`;
  if (code === 'ENOSPC' || code === 'EDQUOT' || NO_SPACE.test(text)) {
    return { cause: `no space left on device (${text})`, advice: `free space on that disk, or ${elsewhere}, and run again` };
  }
  if (code === 'EFBIG' || TOO_LARGE.test(text)) {
    return {
      cause: `a file grew past the file-size limit (${text})`,
      advice: `raise the limit (\`ulimit -f\`), or ${elsewhere} on a file system without a size cap (FAT32 and exFAT stop at 4 GiB), and run again`,
    };
  }
  if (code === 'EMFILE' || code === 'ENFILE' || TOO_MANY_FILES.test(text)) {
    return { cause: `too many open files (${text})`, advice: 'raise the limit on open files (`ulimit -n`), and run again' };
  }
  if (code === 'ENOENT' && syscall === 'uv_cwd') return { cause: 'the current directory no longer exists', advice: 'cd to an existing directory, and run again' };
  if (IO_ERRORS.has(code ?? '')) return { cause: `a read or write failed (${text})`, advice: 'check the disk or network file system the inputs, the --db and the temp directory are on, and run again' };
  return null;
}

/** A disk or file system that failed a read: a failing disk, a network file system gone away. */
const IO_ERRORS = new Set(['EIO', 'ENXIO', 'ESTALE']);

/** An input file the disk or file system failed to read, named, as the user can act on it; null for any other error. */
export function readFailedError(error: unknown, file: string): InputError | null {
  if (error instanceof InputError) return null;
  // Made unreadable after the load tried it (plan-load.ts lists one unreadable then as skipped).
  if (['EACCES', 'EPERM'].includes((error as NodeJS.ErrnoException)?.code ?? '')) {
    return new InputError(`cannot read ${file}: permission denied (its permissions changed while trajaudit read it); fix them and run again, or leave the file out`);
  }
  if (!IO_ERRORS.has((error as NodeJS.ErrnoException)?.code ?? '')) return null;
  return new InputError(`cannot read ${file}: ${errorText(error)} (the disk or file system failed the read); check the disk it is on and run again, or leave the file out`);
}

/**
 * The error as the user can act on it when it is the machine's state (see above), or null. Named
 * for its first case, the one every caller had in mind; `committed` is said after the cause.
 */
export function noSpaceError(error: unknown, committed = ''): InputError | null {
  const state = machineState(error);
  return state && new InputError(`${state.cause}${committed}; ${state.advice}`);
}
