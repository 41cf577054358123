import fs from 'node:fs';
import path from 'node:path';
import type { CommandResult, Progress } from '../command-result.js';
import type { Database } from '../db/database.js';
import { loadConfig } from '../config/load-config.js';
import { defaultHomes } from '../formats/default-homes.js';
import { ExitCode, FailedAfterWarnings, InputError } from '../errors.js';
import { refuseDbInsideInputs } from '../ingest/db-inside-inputs.js';
import { answerExitCode, loadInputs } from '../ingest/load-inputs.js';
import { checkPatterns, configPatterns } from '../queries/check-patterns.js';
import { configParams } from '../queries/config-params.js';
import { emptyWindowHint, holdsEvents } from '../queries/input-span.js';
import { collectReport } from '../report/collect.js';
import { renderReportHtml } from '../report/render-html.js';
import { renderReportJson } from '../report/render-json.js';
import { renderReportMarkdown } from '../report/render-md.js';
import type { ReportData } from '../report/types.js';
import { reportWindows } from '../report/window.js';
import { refuseOutOverDatabase } from './out-over-database.js';
import { descriptorOf, isStream, writeStream, writeWhole } from './report-out.js';

export interface ReportOptions {
  /** --quiet: no progress, no notice of unreadable lines. */
  quiet?: boolean;
  paths: string[];
  db?: string;
  since?: string;
  until?: string;
  config?: string;
  /** Not given: the --out name decides (.html/.htm: html, .json: json), else md. */
  format?: ReportFormat;
  /** `-` is stdout. */
  out?: string;
  /** A window that holds no event is a report all the same (exit 0), not an input error (exit 2). */
  allowEmpty?: boolean;
}

type ReportFormat = 'md' | 'html' | 'json';

/** --format when given; else html for an --out name ending .html or .htm (Markdown in x.html helped nobody), json for .json, else md. */
function formatOf(options: ReportOptions): ReportFormat {
  if (options.format) return options.format;
  if (options.out !== undefined && /\.html?$/i.test(options.out)) return 'html';
  return options.out !== undefined && /\.json$/i.test(options.out) ? 'json' : 'md';
}

/** The report as one text: HTML and JSON whole; Markdown here has no chart files. */
function wholeText(format: ReportFormat, data: ReportData): string {
  if (format === 'html') return renderReportHtml(data);
  return format === 'json' ? renderReportJson(data) : renderReportMarkdown(data, { chartFile: () => null });
}

function inputsShown(options: ReportOptions): string[] {
  if (options.paths.length > 0) return options.paths;
  return options.db ? [`database ${options.db}`] : defaultHomes().map((h) => h.home);
}

/** The paths read: those named, else the default home, unless a --db alone is read as it is. */
function inputsRead(options: ReportOptions): string[] {
  if (options.paths.length > 0) return options.paths;
  return options.db ? [] : defaultHomes().map((h) => h.home);
}

/**
 * The weekly reliability report. Markdown with --out writes report-<chart>.svg beside the file
 * (stdout lists the files written); Markdown on stdout, or into a stream named as --out
 * (/dev/stdout, a FIFO), names its charts as omitted, since a stream has no place for them; HTML
 * carries its charts inline either way.
 */
export async function report(given: ReportOptions, progress: Progress): Promise<CommandResult> {
  // --out /dev/stdout is stdout, written as `-` is (cli.ts writes it through the descriptor).
  const toStdout = given.out === '-' || (given.out !== undefined && descriptorOf(given.out) === 1);
  const options = { ...given, format: formatOf(given), out: toStdout ? undefined : given.out };
  const windows = reportWindows(options.since, options.until);
  // Without --config, ./trajaudit.config.json (run from the agent's repo, where it lives), if any.
  const where = { root: process.cwd(), configPath: options.config, readFromCwdBy: 'report' };
  const config = await loadConfig(where);
  if (options.out && !fs.existsSync(path.dirname(path.resolve(options.out)))) {
    throw new InputError(`--out ${options.out}: directory ${path.dirname(options.out)} does not exist; create it or pass another path`);
  }
  // The report, as a --db, never goes into the data it reads (it overwrote an input file before).
  if (options.out) refuseDbInsideInputs(options.out, inputsRead(options), '--out');
  if (options.out) refuseOutOverDatabase(options.out, options.db);
  const window = { since: windows.previous.since, until: windows.current.until };
  const beforeIngest = (db: Database) => checkPatterns(db, configPatterns(config, where));
  const loaded = await loadInputs({ paths: options.paths, db: options.db, quiet: options.quiet, window, beforeIngest }, progress);
  const { db, warnings, summary } = loaded;
  let data;
  let empty: string | undefined;
  try {
    const onSection = (done: number, total: number, title: string) => progress.update(`report: section ${done + 1} of ${total}, ${title}`);
    const drawCharts = options.format === 'html' || (options.format === 'md' && options.out !== undefined && !isStream(options.out));
    data = await collectReport(db, { windows, inputs: inputsShown(options), fromConfig: configParams(config), onSection, drawCharts });
    // A window with no event (the default 7 days over an older home, a stalled agent) is all
    // zeros: the report says so at its top, and a scheduled run fails rather than publish it.
    const current = { since: windows.current.since.toISOString(), until: windows.current.until.toISOString() };
    const hint = await emptyWindowHint(db, current, summary?.unread ?? []);
    if (hint !== null) warnings.push(hint);
    if (!(await holdsEvents(db, current))) {
      empty = hint === null ? 'the inputs hold no timed record at all' : hint.replace(/^the window .* holds no event; /, '').replace(/: pass --since\/--until within that span$/, '');
      if (!options.allowEmpty) warnings.push('the report was written, but its window holds no event: exit 2 so that a scheduled report is not published empty; pass --allow-empty to take an empty window as a report');
    }
  } finally {
    db.close();
  }
  progress.done();
  try {
    const written = writeReport(options, empty === undefined ? data : { ...data, empty }, warnings);
    return { ...written, exitCode: empty !== undefined && !options.allowEmpty ? ExitCode.input : answerExitCode(loaded) };
  } catch (error) {
    throw new FailedAfterWarnings(error, warnings);
  }
}

/** The report where --out (or its absence) says, with the command's warnings. */
function writeReport(options: ReportOptions & { format: ReportFormat }, data: ReportData, warnings: string[]): CommandResult {
  if (options.out && isStream(options.out)) {
    // What went into the stream is the whole answer: no list of files written after it.
    writeStream(options.out, wholeText(options.format, data));
    return { output: '', exitCode: ExitCode.ok, warnings };
  }
  if (!options.out) return { output: wholeText(options.format, data), exitCode: ExitCode.ok, warnings };
  if (options.format !== 'md') {
    writeWhole(options.out, wholeText(options.format, data));
    return { output: `${options.out}\n`, exitCode: ExitCode.ok, warnings };
  }
  const stem = path.basename(options.out).replace(/\.(md|markdown)$/i, '');
  const chartFile = (id: string) => `${stem}-${id}.svg`;
  const charts = data.sections.flatMap((s) => s.charts).map((chart) => ({ file: path.join(path.dirname(options.out!), chartFile(chart.id)), svg: chart.svg }));
  // A chart file beside the report may be a link into an input: refused before anything is written.
  for (const chart of charts) {
    refuseDbInsideInputs(chart.file, inputsRead(options), '--out');
    refuseOutOverDatabase(chart.file, options.db);
  }
  const written = [options.out];
  writeWhole(options.out, renderReportMarkdown(data, { chartFile }));
  for (const chart of charts) {
    writeWhole(chart.file, `${chart.svg}\n`);
    written.push(chart.file);
  }
  return { output: `${written.join('\n')}\n`, exitCode: ExitCode.ok, warnings };
}
