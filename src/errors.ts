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

/** A bug in trajaudit itself. */
export class InternalError extends Error {
  readonly exitCode = ExitCode.internal;
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError || error instanceof InputError) return error.exitCode;
  return ExitCode.internal;
}
