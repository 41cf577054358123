import { UsageError } from '../errors.js';
import { parseTimeRange } from '../time/parse-time.js';
import type { ReportWindows, Window } from './types.js';

const DAY_MS = 86_400_000;

/**
 * --since/--until (read as every command reads them, parseTimeRange) → the report window and
 * the previous window of the same length.
 */
export function reportWindows(sinceText: string, untilText: string | undefined, now: Date = new Date()): ReportWindows {
  const range = parseTimeRange(sinceText, untilText ?? now.toISOString(), now);
  // Report windows, their previous windows and their day buckets are whole milliseconds.
  for (const [option, bound] of [['--since', range.since!], ['--until', range.until!]] as const) {
    if (bound.micros % 1000n !== 0n) throw new UsageError(`report ${option} ${bound.iso}: report windows are whole milliseconds; drop the digits after the third`);
  }
  const since = range.since!.date;
  const until = range.until!.date;
  const length = until.getTime() - since.getTime();
  return { current: { since, until }, previous: { since: new Date(since.getTime() - length), until: since } };
}

/** Consecutive buckets covering the window: days, or whole multiples of a day for long windows (≤ 31 bars). */
export function buckets(window: Window): Window[] {
  const length = window.until.getTime() - window.since.getTime();
  const size = Math.max(1, Math.ceil(length / DAY_MS / 31)) * DAY_MS;
  const out: Window[] = [];
  for (let t = window.since.getTime(); t < window.until.getTime(); t += size) {
    out.push({ since: new Date(t), until: new Date(Math.min(t + size, window.until.getTime())) });
  }
  return out;
}

/** `2026-08-17` for midnight, else `2026-08-17 10:00` (UTC). */
export function shortTime(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
