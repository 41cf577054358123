import type { CommandResult, Progress } from '../command-result.js';
import type { Database } from '../db/database.js';
import { loadConfig } from '../config/load-config.js';
import { ExitCode, UsageError } from '../errors.js';
import { answerExitCode, loadInputs } from '../ingest/load-inputs.js';
import { bindParams } from '../queries/bind-params.js';
import { checkPatterns, queryPatterns } from '../queries/check-patterns.js';
import { configParams } from '../queries/config-params.js';
import { resolveSession } from '../queries/resolve-session.js';
import { emptyWindowHint } from '../queries/input-span.js';
import { findQuery } from '../queries/load-queries.js';
import { runQuery } from '../queries/run-query.js';
import { signalGaps } from '../queries/signal-notices.js';
import { undatedRows } from '../queries/undated-rows.js';
import { renderTabular, type TabularFormat } from '../render/index.js';
import { parseTimeRange } from '../time/parse-time.js';
import { whileRunning } from '../while-running.js';

export interface QueryOptions {
  /** --quiet: no progress, no notice of unreadable lines. */
  quiet?: boolean;
  name: string;
  paths: string[];
  db?: string;
  param: string[];
  since?: string;
  until?: string;
  session?: string;
  config?: string;
  format: TabularFormat;
  /** Terminal width the table format fits to (main.ts); none: every cell whole. */
  width?: number;
  /** Whether the table format may dim NULL (main.ts: a colour terminal, NO_COLOR unset). */
  color?: boolean;
}

export async function query(options: QueryOptions, progress: Progress): Promise<CommandResult> {
  const canned = findQuery(options.name);
  // Without --config, ./trajaudit.config.json (run from the agent's repo, where it lives), if any.
  const where = { root: process.cwd(), configPath: options.config, readFromCwdBy: 'query' };
  const config = await loadConfig(where);
  // --param since=/until=/session= are the options of those names, read the same way.
  let params = options.param;
  const take = (name: string, option: string | undefined) => {
    const taken = fromParam(params, name, option);
    params = taken.rest;
    return taken;
  };
  const sinceGiven = take('since', options.since);
  const untilGiven = take('until', options.until);
  const range = parseTimeRange(sinceGiven.value, untilGiven.value, new Date(), { since: sinceGiven.label, until: untilGiven.label });
  const sessionText = take('session', options.session).value;
  const window = { since: range.since?.date, until: range.until?.date };
  const since = range.since?.iso;
  const until = range.until?.iso;
  // Validate every parameter before reading any input; RE2 patterns once DuckDB is open.
  const patterns = queryPatterns(bindParams(canned, { params, since, until, session: sessionText }), params, config, where);
  const beforeIngest = (db: Database) => checkPatterns(db, patterns);
  const loaded = await loadInputs({ paths: options.paths, db: options.db, quiet: options.quiet, window, beforeIngest }, progress);
  const { db, warnings, summary } = loaded;
  try {
    const session = sessionText !== undefined ? await resolveSession(db, sessionText, warnings) : undefined;
    const bound = bindParams(canned, {
      params, since, until, session, fromConfig: configParams(config),
    });
    const table = await whileRunning(progress, canned.name, () => runQuery(db, canned, bound));
    for (const gap of await signalGaps(db, canned)) warnings.push(gap.text);
    if (since !== undefined || until !== undefined) {
      const undated = await undatedRows(db, { session, limit: 3 });
      if (undated.count > 0) warnings.push(undatedWarning(undated.count, undated.first.rows.map((r) => String(r.where))));
      // The bounds as given, to the microsecond: `window` holds them to the millisecond.
      const hint = await emptyWindowHint(db, { since, until }, summary?.unread ?? [], session);
      if (hint !== null) warnings.push(hint);
    }
    return { output: renderTabular(table, options.format, { width: options.width, color: options.color }), exitCode: answerExitCode(loaded), warnings };
  } finally {
    db.close();
  }
}

/** `--param NAME=X` for an option that is also a parameter: its value (NULL is no value) and the other params. */
function fromParam(params: string[], name: string, option: string | undefined): { value?: string; label: string; rest: string[] } {
  const valueOf = (p: string) => p.slice(name.length + 1);
  const given = params.filter((p) => p.startsWith(`${name}=`) && !/^(NULL|null)$/.test(valueOf(p)));
  if (given.length + (option !== undefined ? 1 : 0) > 1) throw new UsageError(`give ${name} once: --${name} X or --param ${name}=X`);
  const text = given.length ? valueOf(given[0]) : undefined;
  // A quoted VARCHAR value, as --param takes them ('it''s'), is its text.
  const value = option ?? (text !== undefined && /^'.*'$/s.test(text) ? text.slice(1, -1).replace(/''/g, "'") : text);
  return { value, label: option === undefined && given.length ? `--param ${name}` : `--${name}`, rest: params.filter((p) => !given.includes(p)) };
}

/** A window cannot hold a row with no time: say so, or a windowed answer silently misses it. */
function undatedWarning(count: number, first: string[]): string {
  const rows = count === 1 ? '1 row has' : `${count} rows have`;
  const where = `${first.join(', ')}${count > first.length ? `, … (${count - first.length} more)` : ''}`;
  return `${rows} no readable time (timestamp missing or not an ISO-8601 time), so --since/--until leave ${count === 1 ? 'it' : 'them'} out: ${where}; the report lists them under Input coverage`;
}
