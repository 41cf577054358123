import { UsageError } from '../errors.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A parsed time: the Date (milliseconds) and its ISO text, which keeps microseconds. */
export interface Instant {
  date: Date;
  iso: string;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const notATime = (option: string, value: string) =>
  new UsageError(`${option} ${JSON.stringify(value)} is not a time: use an ISO date or time (2026-08-17, 2026-08-17T10:00:00Z) or a span back from now (7d, 24h, 30m)`);

/**
 * `--since/--until` values: ISO dates or times (a date alone is UTC midnight, a time without a zone
 * is UTC) or a relative span back from `now` (`7d`, `24h`, `30m`, `90s`, `2w`). A day or time that
 * does not exist (2026-02-30, 24:00) is refused, not rolled over; fractions of a second are kept
 * to the microsecond (DuckDB's precision), so a bound never moves past a row it should not.
 */
export function parseInstant(value: string, option: string, now: Date = new Date()): Instant {
  const text = value.trim();
  const relative = /^(\d+(?:\.\d+)?)([smhdw])$/.exec(text);
  if (relative) {
    const date = new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]]);
    return { date, iso: date.toISOString() };
  }
  const m = ISO.exec(text);
  if (!m) throw notATime(option, value);
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part)));
  const fraction = (m[7] ?? '').padEnd(6, '0');
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth || hour > 23 || minute > 59 || second > 59 || /[1-9]/.test(fraction.slice(6))) {
    throw notATime(option, value);
  }
  let offsetMinutes = 0;
  if (m[8] && m[8] !== 'Z') {
    const zone = /^([+-])(\d{2}):?(\d{2})$/.exec(m[8])!;
    if (Number(zone[2]) > 23 || Number(zone[3]) > 59) throw notATime(option, value);
    offsetMinutes = (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]));
  }
  const ms = Date.UTC(year!, month! - 1, day!, hour, minute, second, Number(fraction.slice(0, 3))) - offsetMinutes * 60_000;
  const date = new Date(ms);
  if (Number.isNaN(ms)) throw notATime(option, value);
  const micros = fraction.slice(3, 6);
  return { date, iso: micros === '000' ? date.toISOString() : date.toISOString().replace(/Z$/, `${micros}Z`) };
}

/** parseInstant's Date (millisecond precision). */
export function parseTime(value: string, option: string, now: Date = new Date()): Date {
  return parseInstant(value, option, now).date;
}

/**
 * Microseconds since the epoch of an ISO-8601 time, NaN when it is not one (Date.parse keeps only
 * milliseconds; DuckDB's times have microseconds). Exact as a number until the year 287,396.
 */
export function epochMicros(iso: string): number {
  const extra = /\.\d{3}(\d{1,3})\d*(?:Z|[+-]\d{2}:?\d{2})?$/.exec(iso)?.[1] ?? '';
  return Date.parse(iso) * 1000 + Number(extra.padEnd(3, '0'));
}

export interface TimeRange {
  since?: Instant;
  until?: Instant;
}

/**
 * --since/--until together, the one reading every command uses: --until counts back from now,
 * and a relative --since counts back from --until when one is given (`--since 7d --until
 * 2026-08-24` is the week before 2026-08-24), else from now. A window that would be empty is a
 * usage error, not an empty answer.
 */
export function parseTimeRange(sinceText: string | undefined, untilText: string | undefined, now: Date = new Date()): TimeRange {
  const until = untilText !== undefined ? parseInstant(untilText, '--until', now) : undefined;
  const since = sinceText !== undefined ? parseInstant(sinceText, '--since', until?.date ?? now) : undefined;
  if (since && until && epochMicros(since.iso) >= epochMicros(until.iso)) {
    throw new UsageError(`--since ${since.iso} is not before --until ${until.iso}; the window would be empty`);
  }
  return { since, until };
}

/** `30s`, `250ms`, `2m` → milliseconds (for --window). */
export function parseDuration(value: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) throw new UsageError(`${option} ${JSON.stringify(value)} is not a duration: use e.g. 30s, 250ms, 2m`);
  const unit = match[2] ?? 's';
  return Number(match[1]) * (unit === 'ms' ? 1 : UNIT_MS[unit]);
}
