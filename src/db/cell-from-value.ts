// DuckDB values as cells, losing nothing: times as ISO-8601 UTC (milliseconds, or as many digits
// as the value has), dates as ISO dates, intervals as ISO-8601 durations, infinite times and
// non-finite doubles by one set of names (Infinity, -Infinity, NaN), and a number JavaScript
// cannot hold exactly (a BIGINT past 2^53, a HUGEINT, a wide DECIMAL, 1e400 inside JSON) as an
// ExactNumber, which renders as its own digits.
import type { DuckDBDateValue as DateValue, DuckDBTimeTZValue as TimeTZValue, DuckDBType } from '@duckdb/node-api';
import { type Cell, ExactNumber } from '../render/types.js';
import { duckdb } from './duckdb-api.js';
import { parseJsonExact } from './parse-json-exact.js';

const {
  DuckDBArrayType,
  DuckDBArrayValue,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBFloatType,
  DuckDBIntervalValue,
  DuckDBListType,
  DuckDBListValue,
  DuckDBMapType,
  DuckDBMapValue,
  DuckDBStructType,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTimeTZValue,
  DuckDBTimeValue,
  DuckDBUnionType,
  DuckDBUnionValue,
} = duckdb;

const INFINITE_TIMESTAMP = 9223372036854775807n;
// A BIGINT within these is a JavaScript number, as ExactNumber.from would make it (without its text).
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;
const INFINITE_DATE = 2147483647;
const pad = (n: number | bigint, width: number) => String(n).padStart(width, '0');

/** Year, month, day of a day count since 1970-01-01 (proleptic Gregorian; H. Hinnant's civil_from_days). */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, doy - Math.floor((153 * mp + 2) / 5) + 1];
}

/** 2026-08-15; years outside 0–9999 as ISO-8601's expanded form (+010000, -000001), as JavaScript writes them. */
function isoDate(days: number): string {
  const [y, m, d] = civilFromDays(days);
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : `${y < 0 ? '-' : '+'}${pad(Math.abs(y), 6)}`;
  return `${year}-${pad(m, 2)}-${pad(d, 2)}`;
}

const NANOS_PER_DAY = 86_400_000_000_000n;

/** `nanos` since the epoch as 2026-08-15T09:15:00.000Z, with 6 or 9 fraction digits only when needed. */
function isoFromNanos(nanos: bigint): string {
  let days = nanos / NANOS_PER_DAY;
  let rest = nanos - days * NANOS_PER_DAY;
  if (rest < 0n) {
    days -= 1n;
    rest += NANOS_PER_DAY;
  }
  const ns = Number(rest); // below 8.64e13: exact
  const clock = `${pad(Math.floor(ns / 3.6e12), 2)}:${pad(Math.floor(ns / 6e10) % 60, 2)}:${pad(Math.floor(ns / 1e9) % 60, 2)}`;
  const fraction = ns % 1e9;
  const digits = fraction % 1e6 === 0 ? pad(fraction / 1e6, 3) : fraction % 1e3 === 0 ? pad(fraction / 1e3, 6) : pad(fraction, 9);
  return `${isoDate(Number(days))}T${clock}.${digits}Z`;
}

/**
 * Infinite times and dates take the names JavaScript gives a non-finite double (String(Infinity)),
 * so that one spelling means "no end" whatever the column's type (DuckDB writes 'infinity').
 */
const INFINITY = 'Infinity';

/** A timestamp of `amount` units of `nanosPerUnit` since the epoch; DuckDB's infinities by name. */
function timestamp(amount: bigint, nanosPerUnit: bigint): string {
  if (amount === INFINITE_TIMESTAMP) return INFINITY;
  if (amount === -INFINITE_TIMESTAMP) return `-${INFINITY}`;
  if (nanosPerUnit === 1000n) {
    // The common case, whole milliseconds of microseconds, without BigInt arithmetic.
    const micros = Number(amount);
    if (Number.isSafeInteger(micros) && micros % 1000 === 0) {
      const date = new Date(micros / 1000);
      if (!Number.isNaN(date.getTime())) return date.toISOString();
    }
  }
  return isoFromNanos(amount * nanosPerUnit);
}

function date(value: DateValue): string {
  if (value.days === INFINITE_DATE) return INFINITY;
  if (value.days === -INFINITE_DATE) return `-${INFINITY}`;
  return isoDate(value.days);
}

function time(micros: bigint): string {
  const s = micros / 1_000_000n;
  const fraction = Number(micros % 1_000_000n);
  const hms = `${pad(s / 3600n, 2)}:${pad((s / 60n) % 60n, 2)}:${pad(s % 60n, 2)}`;
  if (fraction === 0) return hms;
  return `${hms}.${fraction % 1000 === 0 ? pad(fraction / 1000, 3) : pad(fraction, 6)}`;
}

const MICROS_PER_DAY = 86_400_000_000n;

/** A time of day with an offset, as the same instant's UTC time: 23:30:00-05 is 04:30:00Z. */
function utcTime(value: TimeTZValue): string {
  const utc = (((value.micros - BigInt(value.offset) * 1_000_000n) % MICROS_PER_DAY) + MICROS_PER_DAY) % MICROS_PER_DAY;
  return `${time(utc)}Z`;
}

/** A FLOAT arrives widened to a double (0.1 as 0.10000000149011612): the fewest digits that read back as the same float. */
function shortestFloat(value: number): number {
  for (let digits = 1; digits <= 9; digits += 1) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

/**
 * ISO-8601 duration: P1Y2M3DT4H5M6.5S, zero as PT0S. ISO-8601 has no negative durations; a wholly
 * negative interval takes the leading '-' of XML Schema's xs:duration, java.time and Temporal
 * (-P1DT2H). DuckDB keeps months, days and microseconds apart, so an interval can mix signs
 * (INTERVAL 1 DAY - INTERVAL 2 HOUR), which no duration can say: each part then keeps its own
 * sign, as PostgreSQL's iso_8601 interval style and java.time's Duration.parse write it (P1DT-2H).
 */
function duration(months: number, days: number, micros: bigint): string {
  if (months <= 0 && days <= 0 && micros <= 0n && (months < 0 || days < 0 || micros < 0n)) return `-${duration(-months, -days, -micros)}`;
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const h = abs / 3_600_000_000n;
  const m = (abs / 60_000_000n) % 60n;
  const us = abs % 60_000_000n;
  const seconds = `${us / 1_000_000n}${us % 1_000_000n ? `.${pad(us % 1_000_000n, 6).replace(/0+$/, '')}` : ''}`;
  const y = Math.trunc(months / 12);
  const mo = months % 12;
  const datePart = `${y ? `${y}Y` : ''}${mo ? `${mo}M` : ''}${days ? `${days}D` : ''}`;
  const timePart = `${h ? `${sign}${h}H` : ''}${m ? `${sign}${m}M` : ''}${us ? `${sign}${seconds}S` : ''}`;
  if (!datePart && !timePart) return 'PT0S';
  return `P${datePart}${timePart ? `T${timePart}` : ''}`;
}

/** One value from a DuckDB result as a cell; `type` finds JSON columns, nested ones too, to parse them exactly. */
export function cellFromValue(value: unknown, type?: DuckDBType): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return type?.alias === 'JSON' ? parseJsonExact(value) : value;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return !Number.isFinite(value) ? String(value) : type instanceof DuckDBFloatType ? shortestFloat(value) : value;
  if (typeof value === 'bigint') return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : ExactNumber.from(String(value));
  if (value instanceof DuckDBTimestampTZValue || value instanceof DuckDBTimestampValue) return timestamp(value.micros, 1000n);
  if (value instanceof DuckDBTimestampMillisecondsValue) return timestamp(value.millis, 1_000_000n);
  if (value instanceof DuckDBTimestampSecondsValue) return timestamp(value.seconds, 1_000_000_000n);
  if (value instanceof DuckDBTimestampNanosecondsValue) return timestamp(value.nanos, 1n);
  if (value instanceof DuckDBDateValue) return date(value);
  if (value instanceof DuckDBTimeValue) return time(value.micros);
  if (value instanceof DuckDBTimeTZValue) return utcTime(value);
  if (value instanceof DuckDBIntervalValue) return duration(value.months, value.days, value.micros);
  if (value instanceof DuckDBDecimalValue) return ExactNumber.from(value.toString());
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
    const items = type instanceof DuckDBListType || type instanceof DuckDBArrayType ? type.valueType : undefined;
    return value.items.map((v) => cellFromValue(v, items));
  }
  if (value instanceof DuckDBStructValue) {
    const entry = (name: string) => (type instanceof DuckDBStructType ? type.entryTypes[type.entryIndexes[name]] : undefined);
    return Object.fromEntries(Object.entries(value.entries).map(([k, v]) => [k, cellFromValue(v, entry(k))]));
  }
  if (value instanceof DuckDBMapValue) {
    const [keys, values] = type instanceof DuckDBMapType ? [type.keyType, type.valueType] : [undefined, undefined];
    return value.entries.map((e) => ({ key: cellFromValue(e.key, keys), value: cellFromValue(e.value, values) }));
  }
  if (value instanceof DuckDBUnionValue) {
    const member = type instanceof DuckDBUnionType ? type.memberTypes[type.tagMemberIndexes[value.tag]] : undefined;
    return { tag: value.tag, value: cellFromValue(value.value, member) };
  }
  if (value instanceof DuckDBBlobValue) return Buffer.from(value.bytes).toString('base64');
  return String(value); // UUID, BIT, …: DuckDB's own text
}
