// Runs each section's canned query for the window and the previous window, shapes the rows and
// renders the charts. The only report module that touches the database.
import type { Database } from '../db/database.js';
import { InternalError, UsageError } from '../errors.js';
import { bindParams } from '../queries/bind-params.js';
import { type CannedQuery, findQuery } from '../queries/load-queries.js';
import { runQuery } from '../queries/run-query.js';
import { signalGaps } from '../queries/signal-notices.js';
import type { Tabular } from '../render/types.js';
import { type DayCount, hasData, pollutionShareSpec, retriesPerDaySpec, retriesPerDayTitle, subagentOutcomesSpec, type ChartSpec } from './charts.js';
import { coverage } from './coverage.js';
import { headline, type SectionRows } from './headline.js';
import { renderSvg } from './render-svg.js';
import { type SectionSpec, sectionSpecs } from './sections.js';
import { shapeSection } from './shape.js';
import type { ChartOutput, ReportData, ReportSection, ReportWindows, Window } from './types.js';
import { bucketDays, bucketLabel, buckets, DAY_MS } from './window.js';

export interface CollectOptions {
  windows: ReportWindows;
  inputs: string[];
  /** Query parameters from trajaudit.config.json (e.g. test_pattern). */
  fromConfig: Record<string, string>;
  /** Told each section as it starts (a progress line on a terminal). */
  onSection?: (done: number, total: number, title: string) => void;
  /** Whether the format shows the charts (HTML, Markdown with its SVG files): drawing them takes vega. */
  drawCharts: boolean;
}

const windowed = (q: CannedQuery) => ['since', 'until'].every((p) => q.params.some((d) => d.name === p));

async function run(db: Database, query: CannedQuery, fromConfig: Record<string, string>, window?: Window): Promise<Tabular> {
  const params = bindParams(query, {
    params: [], fromConfig, since: window?.since.toISOString(), until: window?.until.toISOString(),
  });
  return runQuery(db, query, params);
}

// One bar per bucket and type, as the retry-telemetry section counts them (its events column),
// in one statement: the buckets of window.ts, from the window's start. stream_completed marks
// every stream end, failed or not: it is no retry, and would drown the rest.
const RETRIES_PER_BUCKET = `
SELECT (epoch_us(ts) - epoch_us(CAST($since AS TIMESTAMPTZ))) // CAST($bucket_us AS BIGINT) AS bucket, type, count(*) AS events
FROM retry_telemetry_fields
WHERE ts >= CAST($since AS TIMESTAMPTZ) AND ts < CAST($until AS TIMESTAMPTZ) AND type IS DISTINCT FROM 'stream_completed'
GROUP BY ALL
ORDER BY bucket, events DESC, type`;

async function retriesPerDay(db: Database, options: CollectOptions): Promise<ChartSpec> {
  const window = options.windows.current;
  const days = buckets(window);
  const { rows } = await db.all(RETRIES_PER_BUCKET, {
    since: window.since.toISOString(), until: window.until.toISOString(), bucket_us: bucketDays(window) * DAY_MS * 1000,
  });
  const counts: DayCount[] = rows.map((row) => ({ day: bucketLabel(days[Number(row.bucket)]), type: String(row.type), events: Number(row.events) }));
  return retriesPerDaySpec(days.map(bucketLabel), counts, bucketDays(window));
}

async function chartsFor(db: Database, spec: SectionSpec, query: CannedQuery, current: Tabular, options: CollectOptions): Promise<ChartOutput[]> {
  const wanted: { id: string; title: string; spec: ChartSpec }[] = [];
  if (spec.id === 'retries-by-type') wanted.push({ id: 'retries-per-day', title: retriesPerDayTitle(bucketDays(options.windows.current)), spec: await retriesPerDay(db, options) });
  if (spec.id === 'subagent-outcomes') wanted.push({ id: 'subagent-outcomes', title: 'Subagent outcomes by agent type', spec: subagentOutcomesSpec(current.rows) });
  if (spec.id === 'test-pollution') wanted.push({ id: 'pollution-share', title: 'Share of tasks/ files by category', spec: pollutionShareSpec(current.rows) });
  const out: ChartOutput[] = [];
  for (const chart of wanted.filter((c) => hasData(c.spec))) out.push({ id: chart.id, title: chart.title, svg: options.drawCharts ? await renderSvg(chart.spec, chart.title) : '' });
  return out;
}

/** For a census: the table is every file loaded; the note says how many were written in each window. */
async function censusNotes(db: Database, query: CannedQuery, options: CollectOptions): Promise<string[]> {
  const notes = ['all files loaded, whenever written: these files carry no event time'];
  if (!windowed(query)) return notes;
  const files = async (w: Window) => (await run(db, query, options.fromConfig, w)).rows.map((r) => `${r.category} ${r.files}`).join(', ');
  notes.push(`written in the window (by file mtime): ${await files(options.windows.current)}; in the previous window: ${await files(options.windows.previous)}`);
  return notes;
}

async function section(db: Database, spec: SectionSpec, options: CollectOptions): Promise<{ section: ReportSection; rows: SectionRows }> {
  let query: CannedQuery;
  try {
    query = findQuery(spec.query);
  } catch (error) {
    // The queries ship with trajaudit: a section without its query is a packaging bug.
    if (error instanceof UsageError) throw new InternalError(`report section "${spec.title}" needs queries/${spec.query}.sql, which is missing`);
    throw error;
  }
  const isWindowed = windowed(query) && !spec.census;
  const current = await run(db, query, options.fromConfig, isWindowed ? options.windows.current : undefined);
  const previous = isWindowed ? await run(db, query, options.fromConfig, options.windows.previous) : null;
  const shaped = shapeSection(spec.shape, current, previous);
  if (spec.census) shaped.notes = await censusNotes(db, query, options);
  // A source whose data does not record what the section needs, or that its query does not read: said, never a silent 0.
  for (const gap of await signalGaps(db, query)) shaped.notes.push(gap.text);
  const charts = await chartsFor(db, spec, query, current, options);
  const shown = { id: spec.id, title: spec.title, query: spec.query, about: spec.about, table: shaped.table, notes: shaped.notes, charts };
  return { section: shown, rows: { current, previous } };
}

function undatedTitle(count: number, shown: number): string {
  const which = shown < count ? `the first ${shown} of ${count}` : `${count}`;
  return `Rows with no readable time (${which}): in no window, so left out of every figure below`;
}

// Views several sections read, each twice (window and previous window): computed once for the
// report, as TEMP tables that shadow them on this connection (DuckDB looks in temp first), views
// that read them included. Small: one row per subagent run. In dependency order.
const REUSED_VIEWS = ['subagent_runs', 'agent_runs'];

async function computeReusedViews(db: Database): Promise<void> {
  for (const view of REUSED_VIEWS) {
    await db.run(`CREATE TEMP TABLE report_${view} AS SELECT * FROM ${view}`);
    // An older file's TEMP view of the name (older-schema.ts) would stand in the table's way.
    await db.run(`DROP VIEW IF EXISTS temp.main.${view}`);
    await db.run(`ALTER TABLE temp.main.report_${view} RENAME TO ${view}`);
  }
}

export async function collectReport(db: Database, options: CollectOptions): Promise<ReportData> {
  const total = sectionSpecs.length + 1;
  await computeReusedViews(db);
  options.onSection?.(0, total, 'Input coverage');
  const inputs = await coverage(db, options.windows);
  const sections: ReportSection[] = [{
    id: 'input-coverage', title: 'Input coverage', query: null,
    about: 'What the figures stand on: rows read in each window, every line that could not be read and every row with no readable time (file:line), and the errors the agent recorded.',
    table: inputs.table, notes: [], charts: [],
    extra: [
      ...(inputs.problems.rows.length ? [{ title: 'Unreadable lines', table: inputs.problems }] : []),
      ...(inputs.undated.count ? [{ title: undatedTitle(inputs.undated.count, inputs.undated.first.rows.length), table: inputs.undated.first }] : []),
      ...(inputs.errorPhases.rows.length ? [{ title: 'errors.jsonl records by phase', table: inputs.errorPhases }] : []),
      ...(inputs.errors.rows.length ? [{ title: 'errors.jsonl records (first 20)', table: inputs.errors }] : []),
    ],
  }];
  const rows = new Map<string, SectionRows>();
  for (const spec of sectionSpecs) {
    options.onSection?.(sections.length, total, spec.title);
    const done = await section(db, spec, options);
    sections.push(done.section);
    rows.set(spec.id, done.rows);
  }
  return { windows: options.windows, inputs: options.inputs, headline: headline({ sections: rows, errorPhases: inputs.errorPhases, previousHoldsData: inputs.previousHoldsData }), sections };
}
