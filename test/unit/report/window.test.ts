import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { bucketDays, bucketLabel, buckets, reportWindows, shortTime } from '../../../src/report/window.js';

const iso = (d: Date) => d.toISOString();

describe('reportWindows', () => {
  it('puts the previous window of the same length right before the window', () => {
    const w = reportWindows('2026-08-17', '2026-08-24');
    expect([iso(w.current.since), iso(w.current.until)]).toEqual(['2026-08-17T00:00:00.000Z', '2026-08-24T00:00:00.000Z']);
    expect([iso(w.previous.since), iso(w.previous.until)]).toEqual(['2026-08-10T00:00:00.000Z', '2026-08-17T00:00:00.000Z']);
  });

  it('counts a relative --since back from --until when one is given, else from now', () => {
    expect(iso(reportWindows('7d', '2026-08-24').current.since)).toBe('2026-08-17T00:00:00.000Z');
    const now = new Date('2026-09-01T12:00:00Z');
    const w = reportWindows('36h', undefined, now);
    expect([iso(w.current.since), iso(w.current.until), iso(w.previous.since)]).toEqual([
      '2026-08-31T00:00:00.000Z', '2026-09-01T12:00:00.000Z', '2026-08-29T12:00:00.000Z',
    ]);
  });

  it('rejects an empty or inverted window with a usage error naming both ends', () => {
    expect(() => reportWindows('2026-08-24', '2026-08-17')).toThrow(UsageError);
    expect(() => reportWindows('2026-08-24', '2026-08-17')).toThrow('--since 2026-08-24T00:00:00.000Z is not before --until 2026-08-17T00:00:00.000Z');
    expect(() => reportWindows('last week', undefined)).toThrow(/--since "last week" is not a time/);
  });

  it('names the option the user typed: --until for digits a relative --since took from it, --since for a previous window before year 0', () => {
    expect(() => reportWindows('7d', '2026-08-24T00:00:00.0001Z')).toThrow(/^report --until "2026-08-24T00:00:00.0001Z" \(2026-08-24T00:00:00.000100Z\): report windows are whole milliseconds/);
    expect(() => reportWindows('0001-01-01', '2026-08-24')).toThrow(/^report --since "0001-01-01": the previous window .* would start before the year 0000/);
    expect(iso(reportWindows('0000-01-02', '0000-01-03').previous.since)).toBe('0000-01-01T00:00:00.000Z');
  });
});

describe('buckets', () => {
  it('cuts a week into 7 days and a ragged window into days plus a short last one', () => {
    expect(buckets(reportWindows('2026-08-17', '2026-08-24').current).map((b) => shortTime(b.since)))
      .toEqual(['2026-08-17', '2026-08-18', '2026-08-19', '2026-08-20', '2026-08-21', '2026-08-22', '2026-08-23']);
    const ragged = buckets(reportWindows('2026-08-17T12:00', '2026-08-19').current);
    expect(ragged.map((b) => [shortTime(b.since), shortTime(b.until)])).toEqual([['2026-08-17 12:00', '2026-08-18 12:00'], ['2026-08-18 12:00', '2026-08-19']]);
  });

  it('keeps a long window to at most 31 bars of whole days', () => {
    const year = buckets(reportWindows('2026-01-01', '2027-01-01').current);
    expect(year.length).toBeLessThanOrEqual(31);
    expect(year[1].since.getTime() - year[0].since.getTime()).toBe(12 * 86_400_000);
  });
});

describe('bucketLabel', () => {
  const w = (since: string, until: string) => ({ since: new Date(since), until: new Date(until) });
  it('names one day as the day, and a bar of several days by its first and last day, both included', () => {
    expect(bucketLabel(w('2026-07-01T00:00Z', '2026-07-02T00:00Z'))).toBe('2026-07-01');
    expect(bucketLabel(w('2026-07-01T00:00Z', '2026-07-03T00:00Z'))).toBe('2026-07-01–02');
    expect(bucketLabel(w('2026-07-31T00:00Z', '2026-08-02T00:00Z'))).toBe('2026-07-31–08-01');
    expect(bucketLabel(w('2026-12-25T00:00Z', '2027-01-06T00:00Z'))).toBe('2026-12-25–2027-01-05');
    expect(bucketLabel(w('2026-07-01T12:00Z', '2026-07-03T12:00Z'))).toBe('2026-07-01 12:00–2026-07-03 12:00');
  });

  it('goes with bucketDays: 1 up to 31 days, then whole days per bar', () => {
    expect(bucketDays(reportWindows('2026-07-01', '2026-08-01').current)).toBe(1);
    expect(bucketDays(reportWindows('2026-07-01', '2026-09-01').current)).toBe(2);
  });
});
