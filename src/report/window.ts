import { UsageError } from '../errors.js';
import { parseTimeRange } from '../time/parse-time.js';
import type { ReportWindows, Window } from './types.js';

export const DAY_MS = 86_400_000;
// The earliest time parse-time accepts (DuckDB's TIMESTAMPTZ without an expanded year).
const FIRST_MS = Date.parse('0000-01-01T00:00:00.000Z');

/** The default window: the last 7 whole UTC days, today (begun) left out, so that it is the same all day. */
export function lastWholeDays(now: Date, days = 7): { since: string; until: string } {
  const midnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return { since: new Date(midnight - days * DAY_MS).toISOString(), until: new Date(midnight).toISOString() };
}

/**
 * --since/--until (read as every command reads them, parseTimeRange) → the report window and
 * the previous window of the same length. Neither given: the last 7 whole UTC days.
 */
export function reportWindows(sinceGiven: string | undefined, untilGiven: string | undefined, now: Date = new Date()): ReportWindows {
  const whole = sinceGiven === undefined && untilGiven === undefined ? lastWholeDays(now) : undefined;
  const sinceText = whole?.since ?? sinceGiven ?? '7d';
  const untilText = whole?.until ?? untilGiven;
  const range = parseTimeRange(sinceText, untilText ?? now.toISOString(), now);
  // Report windows, their previous windows and their day buckets are whole milliseconds. --until
  // first: a relative --since (7d) is counted back from it, so digits there came from --until.
  const given = [['--until', untilText, range.until!], ['--since', sinceText, range.since!]] as const;
  for (const [option, text, bound] of given) {
    if (bound.micros % 1000n === 0n || text === undefined) continue;
    const read = text.trim() === bound.iso ? '' : ` (${bound.iso})`;
    throw new UsageError(`report ${option} ${JSON.stringify(text)}${read}: report windows are whole milliseconds; drop the digits after the third`);
  }
  const since = range.since!.date;
  const until = range.until!.date;
  const length = until.getTime() - since.getTime();
  const previous = new Date(since.getTime() - length);
  // The previous window is the reader's comparison: it must be a time every command can read.
  if (previous.getTime() < FIRST_MS) {
    throw new UsageError(`report --since ${JSON.stringify(sinceText)}: the previous window (as long as this one, right before it) would start before the year 0000; use a later --since or a shorter window`);
  }
  return { current: { since, until }, previous: { since: previous, until: since } };
}

/** How many days one bar of a window's chart covers: 1, or a whole multiple of a day for long windows (≤ 31 bars). */
export function bucketDays(window: Window): number {
  const length = window.until.getTime() - window.since.getTime();
  return Math.max(1, Math.ceil(length / DAY_MS / 31));
}

/** Consecutive buckets of bucketDays() days covering the window; the last one may be shorter. */
export function buckets(window: Window): Window[] {
  const size = bucketDays(window) * DAY_MS;
  const out: Window[] = [];
  for (let t = window.since.getTime(); t < window.until.getTime(); t += size) {
    out.push({ since: new Date(t), until: new Date(Math.min(t + size, window.until.getTime())) });
  }
  return out;
}

/**
 * A bar's label: its day when it covers one day at most; else the days it covers, both ends
 * included (`2026-07-01–02`, `2026-07-31–08-01`), or its two ends when they are not midnight, so
 * that a bar summing several days never reads as one day's count.
 */
export function bucketLabel(bucket: Window): string {
  const first = shortTime(bucket.since);
  if (bucket.until.getTime() - bucket.since.getTime() <= DAY_MS) return first;
  const midnights = first.length === 10 && shortTime(bucket.until).length === 10;
  if (!midnights) return `${first}–${shortTime(bucket.until)}`;
  const last = shortTime(new Date(bucket.until.getTime() - DAY_MS));
  // Drop the year, and the month, that the last day shares with the first.
  const shared = last.slice(0, 4) !== first.slice(0, 4) ? 0 : last.slice(0, 7) !== first.slice(0, 7) ? 5 : 8;
  return `${first}–${last.slice(shared)}`;
}

/** `2026-08-17` for midnight, else `2026-08-17 10:00` (UTC). */
export function shortTime(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}
