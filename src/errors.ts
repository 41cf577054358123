import os from 'node:os';

/** Exit codes of the contract in DESIGN.md: computed only in cli.ts via exitCodeFor. */
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

/** A bug in trajaudit itself. */
export class InternalError extends Error {
  readonly exitCode = ExitCode.internal;
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError || error instanceof InputError) return error.exitCode;
  return ExitCode.internal;
}

// A full disk (or quota) is the machine's state, not a bug: one line and exit 2, as DuckDB's out of
// memory is, wherever it surfaces (DuckDB writing the database, its log or its spill; Node writing
// rows or a grown file's tail to the temp dir; `--out`).
const NO_SPACE = /No space left on device|Disk quota exceeded/i;

function isNoSpace(error: unknown): boolean {
  if (error instanceof InputError || error instanceof UsageError) return false; // said already
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || NO_SPACE.test(error instanceof Error ? error.message : String(error));
}

/** The error as the user can act on it, or null when it is not a full disk. */
export function noSpaceError(error: unknown, committed = ''): InputError | null {
  if (!isNoSpace(error)) return null;
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return new InputError(`no space left on device (${first})${committed}; free space on that disk, or put the --db file, --out or the temp directory (TMPDIR, now ${os.tmpdir()}) elsewhere, and run again`);
}
