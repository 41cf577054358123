import type { CommandResult, Progress } from '../command-result.js';
import { ExitCode, UsageError } from '../errors.js';
import { answerExitCode, loadInputs } from '../ingest/load-inputs.js';
import { resolveSession } from '../queries/resolve-session.js';
import { renderTabular } from '../render/index.js';
import { parseDuration, parseInstant } from '../time/parse-time.js';
import { agentRows, aroundRows, checkEventNames, eventRows } from '../timeline/filter-rows.js';
import { mergedRows } from '../timeline/timeline-rows.js';
import { toTabular } from '../timeline/to-tabular.js';

export interface TimelineOptions {
  /** --quiet: no progress, no notice of unreadable lines. */
  quiet?: boolean;
  session: string;
  paths: string[];
  db?: string;
  agent?: string;
  around?: string;
  /** Half-width of the --around window; 30s when not given. */
  window?: string;
  event: string[];
  format: 'table' | 'json' | 'md';
  /** Terminal width the table format fits to (main.ts); none: every cell whole. */
  width?: number;
  /** Whether the table format may dim NULL (main.ts: a colour terminal, NO_COLOR unset). */
  color?: boolean;
}

export async function timeline(options: TimelineOptions, progress: Progress): Promise<CommandResult> {
  // Validate the options before reading any input.
  const centre = options.around !== undefined ? parseInstant(options.around, '--around') : undefined;
  // --window is the half-width around --around: alone it would be ignored without a word.
  if (options.window !== undefined && centre === undefined) {
    throw new UsageError(`--window ${options.window} needs --around T: it is the half-width of the window around that time`);
  }
  const windowMs = parseDuration(options.window ?? '30s', '--window');
  const loaded = await loadInputs({ paths: options.paths, db: options.db, quiet: options.quiet }, progress);
  const { db, warnings } = loaded;
  try {
    const sessionId = await resolveSession(db, options.session, warnings);
    let rows = await mergedRows(db, sessionId);
    checkEventNames(rows, options.event, sessionId);
    if (options.agent !== undefined) rows = agentRows(rows, options.agent, sessionId);
    if (centre !== undefined) rows = aroundRows(rows, centre, windowMs);
    if (options.event.length > 0) rows = eventRows(rows, options.event);
    return { output: renderTabular(toTabular(rows, options.format), options.format, { width: options.width, color: options.color, foldConstantColumns: true }), exitCode: answerExitCode(loaded), warnings };
  } finally {
    db.close();
  }
}
