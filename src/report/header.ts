import type { ReportData, Window } from './types.js';

/** `2026-08-17T00:00:00Z` (milliseconds only when they are not zero). */
export function isoTime(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z');
}

export function windowText(w: Window): string {
  return `${isoTime(w.since)} → ${isoTime(w.until)}`;
}

/** `7 days`, `36 hours`, `90 minutes`. */
export function lengthText(w: Window): string {
  const ms = w.until.getTime() - w.since.getTime();
  const units: [number, string][] = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute'], [1000, 'second']];
  for (const [size, name] of units) if (ms % size === 0) return `${ms / size} ${name}${ms / size === 1 ? '' : 's'}`;
  return `${ms} ms`;
}

export const reportTitle = (data: ReportData) => `trajaudit reliability report, ${isoTime(data.windows.current.since).slice(0, 10)} to ${isoTime(data.windows.current.until).slice(0, 10)}`;

/** The headline block at the top of the report, and its one line when nothing matters. */
export const FINDINGS_TITLE = 'Findings';
export const NO_FINDINGS = 'Nothing to flag this window: no silent subagent failure, no exhausted retry budget, no snapshot verdict other than clean, no errors.jsonl phase new since the previous window.';
