// Pure: report data → Vega-Lite specs. Data is inlined (`values`), never loaded from a URL.
import type { Row } from '../render/types.js';
import { inlineText } from '../render/visible-text.js';

export type ChartSpec = Record<string, unknown>;

/**
 * A name from the input (an agent type, a retry type) as a chart shows it: as the tables show it
 * (visible-text.ts), on one line, and with U+FFFE and U+FFFF as escapes too. XML 1.0 holds no
 * control character but tab, newline and carriage return, and neither of those two: one of them
 * in a label makes the SVG beside an md report invalid, and no viewer shows the chart.
 */
function label(text: string): string {
  return inlineText(text).replace(/[\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

const base = {
  width: 560,
  background: 'white',
  config: { font: 'sans-serif', view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 11 }, legend: { labelFontSize: 11, titleFontSize: 11, labelLimit: 320 } },
};

export interface DayCount {
  day: string;
  type: string;
  events: number;
}

/**
 * Stacked bars: RetryTelemetry events per bucket of `bucketDays` days (1 but for long windows), one
 * colour per type. `days` (the bucket labels) fixes the x domain so empty buckets show.
 */
export function retriesPerDaySpec(days: string[], counts: DayCount[], bucketDays = 1): ChartSpec {
  return {
    ...base,
    height: 220,
    data: { values: counts.map((count) => ({ ...count, type: label(count.type) })) },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'day', type: 'ordinal', title: bucketDays === 1 ? 'day (UTC)' : `${bucketDays} days (UTC), first–last`, scale: { domain: days },
        // More than ~10 bars leave each label less room than its text: slant them rather than overprint.
        axis: { labelAngle: days.length > 10 ? -45 : 0 } },
      y: { field: 'events', type: 'quantitative', aggregate: 'sum', title: 'events', axis: { tickMinStep: 1 } },
      color: { field: 'type', type: 'nominal', title: 'type', scale: { scheme: 'tableau10' } },
      order: { field: 'type' },
    },
  };
}

const OUTCOMES = ['completed', 'error', 'unknown', 'never_stopped'];
const OUTCOME_COLOURS = ['#4c9a2a', '#d62728', '#9e9e9e', '#ff7f0e'];

/** Horizontal stacked bars: per agent type, how its subagents ended. */
export function subagentOutcomesSpec(rows: Row[]): ChartSpec {
  const values = rows.flatMap((r) => OUTCOMES.map((o) => ({ agent_type: label(String(r.agent_type ?? '(none)')), outcome: o, count: Number(r[o] ?? 0) })))
    .filter((v) => v.count > 0);
  return {
    ...base,
    data: { values },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'agent_type', type: 'nominal', title: 'agent type', sort: 'ascending' },
      x: { field: 'count', type: 'quantitative', aggregate: 'sum', title: 'subagents', axis: { tickMinStep: 1 } },
      color: { field: 'outcome', type: 'nominal', title: 'outcome', scale: { domain: OUTCOMES, range: OUTCOME_COLOURS } },
      order: { field: 'outcome' },
    },
  };
}

const CATEGORIES = ['real', 'test', 'empty'];
const CATEGORY_COLOURS = ['#4c78a8', '#e45756', '#bab0ac'];

/** A donut: share of tasks/*.output files per category. */
export function pollutionShareSpec(rows: Row[]): ChartSpec {
  const values = rows.map((r) => ({ category: label(String(r.category)), files: Number(r.files ?? 0), share: Number(r.share ?? 0) }))
    .filter((v) => v.files > 0);
  return {
    ...base,
    width: 220,
    height: 220,
    data: { values },
    mark: { type: 'arc', innerRadius: 55, stroke: 'white' },
    encoding: {
      theta: { field: 'files', type: 'quantitative', stack: true },
      color: { field: 'category', type: 'nominal', title: 'category', scale: { domain: CATEGORIES, range: CATEGORY_COLOURS } },
      order: { field: 'category' },
    },
  };
}

/** The chart's title: per day, or per N days when each bar sums several. */
export function retriesPerDayTitle(bucketDays: number): string {
  return `Retry events per ${bucketDays === 1 ? 'day' : `${bucketDays} days`} by type`;
}

export function hasData(spec: ChartSpec): boolean {
  return ((spec.data as { values: unknown[] }).values).length > 0;
}
