import { UsageError } from '../errors.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A parsed time: microseconds since the epoch, its Date (milliseconds) and its ISO text (microseconds). */
export interface Instant {
  /** A BigInt: past the years 1685–2255 microseconds are beyond a double's integers. */
  micros: bigint;
  date: Date;
  iso: string;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
// DuckDB's TIMESTAMPTZ and ISO-8601 without an expanded year: 0000-01-01 … 9999-12-31.
const FIRST_MICROS = BigInt(Date.parse('0000-01-01T00:00:00.000Z')) * 1000n;
const LAST_MICROS = BigInt(Date.parse('9999-12-31T23:59:59.999Z')) * 1000n + 999n;

const notATime = (option: string, value: string) =>
  new UsageError(`${option} ${JSON.stringify(value)} is not a time: use an ISO date or time (2026-08-17, 2026-08-17T10:00:00Z) or a span back from now (7d, 24h, 30m)`);

const isLeap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** ISO text of a time in microseconds: toISOString's milliseconds, plus three digits when they are not 000. */
function instant(micros: bigint, option: string, value: string): Instant {
  if (micros < FIRST_MICROS || micros > LAST_MICROS) {
    throw new UsageError(`${option} ${JSON.stringify(value)} is outside the years 0000–9999 that times can have`);
  }
  const rest = ((micros % 1000n) + 1000n) % 1000n;
  const date = new Date(Number((micros - rest) / 1000n));
  const iso = rest === 0n ? date.toISOString() : date.toISOString().replace(/Z$/, `${String(rest).padStart(3, '0')}Z`);
  return { micros, date, iso };
}

/**
 * `--since/--until` values: ISO dates or times (a date alone is UTC midnight, a time without a zone
 * is UTC) or a relative span back from `from` (`7d`, `24h`, `30m`, `90s`, `2w`; default now). A day
 * or time that does not exist (2026-02-30, 24:00) is refused, not rolled over; fractions of a
 * second are kept to the microsecond (DuckDB's precision), so a bound never moves past a row it
 * should not.
 */
export function parseInstant(value: string, option: string, from: Date | Instant = new Date()): Instant {
  const text = value.trim();
  const relative = /^(\d+(?:\.\d+)?)([smhdw])$/.exec(text);
  if (relative) {
    const base = from instanceof Date ? BigInt(from.getTime()) * 1000n : from.micros;
    const span = Math.round(Number(relative[1]) * UNIT_MS[relative[2]] * 1000);
    if (!Number.isFinite(span)) throw new UsageError(`${option} ${JSON.stringify(value)} is outside the years 0000–9999 that times can have`);
    return instant(base - BigInt(span), option, value);
  }
  const m = ISO.exec(text);
  if (!m) throw notATime(option, value);
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part)));
  const fraction = (m[7] ?? '').padEnd(6, '0');
  if (/[1-9]/.test(fraction.slice(6))) {
    throw new UsageError(`${option} ${JSON.stringify(value)} is finer than a microsecond, which is as fine as times are kept; drop the digits after the sixth`);
  }
  const daysInMonth = month === 2 && isLeap(year!) ? 29 : DAYS[month! - 1];
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth || hour > 23 || minute > 59 || second > 59) throw notATime(option, value);
  let offsetMinutes = 0;
  if (m[8] && m[8] !== 'Z') {
    const zone = /^([+-])(\d{2}):?(\d{2})$/.exec(m[8])!;
    if (Number(zone[2]) > 23 || Number(zone[3]) > 59) throw notATime(option, value);
    offsetMinutes = (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]));
  }
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999.
  const utc = new Date(0);
  utc.setUTCFullYear(year!, month! - 1, day!);
  utc.setUTCHours(hour, minute, second, 0);
  return instant(BigInt(utc.getTime() - offsetMinutes * 60_000) * 1000n + BigInt(fraction.slice(0, 6)), option, value);
}

/** parseInstant's Date (millisecond precision). */
export function parseTime(value: string, option: string, now: Date = new Date()): Date {
  return parseInstant(value, option, now).date;
}

/**
 * Microseconds since the epoch of an ISO-8601 time, null when it is not one (Date.parse keeps only
 * milliseconds; DuckDB's times have microseconds).
 */
export function epochMicros(iso: string): bigint | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const extra = /\.\d{3}(\d{1,3})\d*(?:Z|[+-]\d{2}:?\d{2})?$/.exec(iso)?.[1] ?? '';
  return BigInt(ms) * 1000n + BigInt(extra.padEnd(3, '0'));
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
export function parseTimeRange(sinceText: string | undefined, untilText: string | undefined, now: Date = new Date(), labels = { since: '--since', until: '--until' }): TimeRange {
  const until = untilText !== undefined ? parseInstant(untilText, labels.until, now) : undefined;
  const since = sinceText !== undefined ? parseInstant(sinceText, labels.since, until ?? now) : undefined;
  if (since && until && since.micros >= until.micros) {
    throw new UsageError(`--since ${since.iso} is not before --until ${until.iso}; the window would be empty`);
  }
  return { since, until };
}

/** `30s`, `250ms`, `2m` → milliseconds (for --window). */
export function parseDuration(value: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) throw new UsageError(`${option} ${JSON.stringify(value)} is not a duration: use e.g. 30s, 250ms, 2m`);
  const unit = match[2] ?? 's';
  const ms = Number(match[1]) * (unit === 'ms' ? 1 : UNIT_MS[unit]);
  // Digits past what a double holds read as Infinity, which no time span is.
  if (!Number.isFinite(ms)) throw new UsageError(`${option} ${JSON.stringify(value)} is too long to be a duration: use e.g. 30s, 250ms, 2m (3650000d spans every time there is)`);
  return ms;
}
