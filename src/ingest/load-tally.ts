// What a load has done so far: the summary's counts, and the progress line drawn from them.
import type { Progress } from '../command-result.js';
import type { LineLedger } from './line-ledger.js';
import type { IngestSummary } from './plan-load.js';
import type { Work } from './work.js';

export class LoadTally {
  private done: number;
  private shownAt = 0;
  private readonly started: number;
  /** Files read but not yet committed by any connection. */
  private readonly uncommitted = { files: 0, bytes: 0 };
  /** The most shown so far: a group rolled back and read again never makes the line go back. */
  private readonly shown = { files: 0, bytes: 0 };

  /** `totalBytes`: the bytes this load has to read (what it reads again after a rollback aside). */
  constructor(readonly summary: IngestSummary, private readonly progress: Progress, private readonly totalBytes = 0, private readonly now = () => Date.now()) {
    this.done = summary.unchanged + summary.outsideWindow;
    this.started = now();
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

  /** The progress line, at most ten times a second: files and MiB done of the total, the rate, the time left. */
  tick(): void {
    if (this.now() - this.shownAt < 100) return;
    this.shownAt = this.now();
    this.shown.files = Math.min(this.summary.files, Math.max(this.shown.files, this.done + this.uncommitted.files));
    this.shown.bytes = Math.min(Math.max(this.totalBytes, 0), Math.max(this.shown.bytes, this.summary.bytesRead + this.uncommitted.bytes));
    const mib = (bytes: number) => (bytes / 1048576).toFixed(1);
    const seconds = Math.max(0.001, (this.now() - this.started) / 1000);
    const rate = this.shown.bytes / seconds;
    const left = rate > 0 && this.shown.bytes > 0 ? `, ${timeLeft((this.totalBytes - this.shown.bytes) / rate)} left` : '';
    this.progress.update(`loading ${this.shown.files}/${this.summary.files} files, ${mib(this.shown.bytes)}/${mib(this.totalBytes)} MiB, ${(rate / 1048576).toFixed(0)} MiB/s${left}`);
  }

  /** A reader's refusal, for TRAJAUDIT_DEBUG. */
  debug(message: string): void {
    this.progress.debug?.(message);
  }
}

/** Seconds as the progress line says them: `8 s`, `2 min 5 s`, `1 h 3 min`. */
export function timeLeft(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
