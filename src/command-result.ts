import type { ExitCode } from './errors.js';

/** What every command hands back to cli.ts: the text for stdout, notes for stderr, the exit code. */
export interface CommandResult {
  output: string;
  /** 0–3 per docs/cli.md#exit-codes; leak-check passes a failed command's own code through. */
  exitCode: ExitCode | number;
  /** Diagnostics for stderr (never mixed into `output`, so piped JSON stays parseable). */
  warnings?: string[];
}

/** Progress on stderr; cli.ts passes a silent one on a pipe or with --quiet. */
export interface Progress {
  update(message: string): void;
  done(): void;
  /** A diagnostic shown with TRAJAUDIT_DEBUG=1 only (a reader's refusal). */
  debug?(message: string): void;
}
