import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { parseInstant, parseTimeRange } from '../../../src/time/parse-time.js';

const NOW = new Date('2026-09-01T12:00:00.000Z');

describe('parseInstant', () => {
  it.each([
    ['2026-08-17', '2026-08-17T00:00:00.000Z'],
    ['2026-08-17T10:00', '2026-08-17T10:00:00.000Z'],
    ['2026-08-17 10:00:05', '2026-08-17T10:00:05.000Z'],
    ['2026-08-17T10:00:05.5+08:00', '2026-08-17T02:00:05.500Z'],
    ['2026-08-17T10:00:05-0130', '2026-08-17T11:30:05.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2026-08-17T10:00:02.0005Z', '2026-08-17T10:00:02.000500Z'],
    ['2026-08-17T10:00:02.123456789Z', null],
    ['2026-08-17T10:00:02.123456000Z', '2026-08-17T10:00:02.123456Z'],
    ['24h', '2026-08-31T12:00:00.000Z'],
    ['0050-01-01', '0050-01-01T00:00:00.000Z'],
    ['0000-02-29', '0000-02-29T00:00:00.000Z'],
    ['1969-12-31T23:59:59.9995Z', '1969-12-31T23:59:59.999500Z'],
    ['9999-12-31T23:59:59.999999Z', '9999-12-31T23:59:59.999999Z'],
  ])('%s → %s', (text, iso) => {
    if (iso === null) expect(() => parseInstant(text, '--since', NOW)).toThrow(UsageError);
    else expect(parseInstant(text, '--since', NOW).iso).toBe(iso);
  });

  it.each([
    ['9999-12-31T23:00:00-05:00', 'is outside the years 0000–9999 that times can have'],
    ['99999999999d', 'is outside the years 0000–9999 that times can have'],
    ['2026-08-17T10:00:00.1234567Z', 'is finer than a microsecond, which is as fine as times are kept; drop the digits after the sixth'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseInstant(text, '--until', NOW)).toThrow(`--until ${JSON.stringify(text)} ${message}`);
  });

  it.each(['1900-02-29', '0100-02-29', '2026-02-30', '2026-02-29', '2026-09-31', '2026-13-01', '2026-00-10', '2026-08-17T24:00', '2026-08-17T10:60', '2026-08-17T10:00:60', '2026-08-17T10:00+24:00', 'yesterday', ''])(
    'refuses %j: a day or time that does not exist is not rolled over',
    (text) => {
      expect(() => parseInstant(text, '--since', NOW)).toThrow(`--since ${JSON.stringify(text)} is not a time`);
    },
  );
});

describe('parseTimeRange', () => {
  it('a relative --since counts back from --until, else from now', () => {
    expect(parseTimeRange('7d', '2026-08-24', NOW).since!.iso).toBe('2026-08-17T00:00:00.000Z');
    expect(parseTimeRange('7d', undefined, NOW).since!.iso).toBe('2026-08-25T12:00:00.000Z');
  });

  it('a relative --since keeps the microseconds of --until', () => {
    expect(parseTimeRange('1s', '2026-01-01T00:00:00.000500Z', NOW).since!.iso).toBe('2025-12-31T23:59:59.000500Z');
  });

  it('compares to the microsecond: an empty window is refused, one of 1 µs is not', () => {
    expect(() => parseTimeRange('2026-08-17T10:00:00.000001Z', '2026-08-17T10:00:00.000001Z', NOW)).toThrow('the window would be empty');
    expect(() => parseTimeRange('2026-08-17T10:00:00.0005Z', '2026-08-17T10:00:00.000Z', NOW)).toThrow('the window would be empty');
    expect(parseTimeRange('2026-08-17T10:00:00.000Z', '2026-08-17T10:00:00.000001Z', NOW).until!.iso).toBe('2026-08-17T10:00:00.000001Z');
  });
});
