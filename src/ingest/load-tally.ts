// What a load has done so far: the summary's counts, and the progress line drawn from them.
import type { Progress } from '../command-result.js';
import type { LineLedger } from './line-ledger.js';
import type { IngestSummary } from './plan-load.js';
import type { Work } from './work.js';

export class LoadTally {
  private done: number;
  private shownAt = 0;
  private readonly started = Date.now();
  /** Files read but not yet committed by any connection. */
  private readonly uncommitted = { files: 0, bytes: 0 };

  constructor(readonly summary: IngestSummary, private readonly progress: Progress) {
    this.done = summary.unchanged + summary.outsideWindow;
  }

  /** A file's rows committed. */
  record(w: Work, ledger: LineLedger): void {
    this.summary.bytesRead += ledger.bytes;
    this.summary.malformed += ledger.malformed;
    this.summary[w.plan.action === 'append' ? 'appended' : w.plan.action === 'reload' ? 'reloaded' : 'loaded'] += 1;
    this.done += 1;
  }

  /** Files read (positive) or committed or rolled back (negative) in an open transaction. */
  inFlight(delta: { files: number; bytes: number }): void {
    this.uncommitted.files += delta.files;
    this.uncommitted.bytes += delta.bytes;
  }

  /** The progress line, at most ten times a second. */
  tick(): void {
    if (Date.now() - this.shownAt < 100) return;
    this.shownAt = Date.now();
    const mib = (this.summary.bytesRead + this.uncommitted.bytes) / 1048576;
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    this.progress.update(`loading ${this.done + this.uncommitted.files}/${this.summary.files} files, ${mib.toFixed(1)} MiB, ${(mib / seconds).toFixed(0)} MiB/s`);
  }

  /** A reader's refusal, for TRAJAUDIT_DEBUG. */
  debug(message: string): void {
    this.progress.debug?.(message);
  }
}
