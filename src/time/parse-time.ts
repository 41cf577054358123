import { UsageError } from '../errors.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since/--until` values: ISO dates or times (a date alone is UTC midnight, a time without a zone
 * is UTC) or a relative span back from `now` (`7d`, `24h`, `30m`, `90s`, `2w`).
 */
export function parseTime(value: string, option: string, now: Date = new Date()): Date {
  const relative = /^(\d+(?:\.\d+)?)([smhdw])$/.exec(value.trim());
  if (relative) return new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]]);
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (iso) {
    const text = value.trim().replace(' ', 'T');
    const parsed = new Date(text.length === 10 ? `${text}T00:00:00Z` : iso[1] ? text : `${text}Z`);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  throw new UsageError(`${option} ${JSON.stringify(value)} is not a time: use an ISO date or time (2026-08-17, 2026-08-17T10:00:00Z) or a span back from now (7d, 24h, 30m)`);
}

/** `30s`, `250ms`, `2m` → milliseconds (for --window). */
export function parseDuration(value: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) throw new UsageError(`${option} ${JSON.stringify(value)} is not a duration: use e.g. 30s, 250ms, 2m`);
  const unit = match[2] ?? 's';
  return Number(match[1]) * (unit === 'ms' ? 1 : UNIT_MS[unit]);
}
