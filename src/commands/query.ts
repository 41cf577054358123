import type { CommandResult, Progress } from '../command-result.js';
import { loadConfig } from '../config/load-config.js';
import { ExitCode, UsageError } from '../errors.js';
import { loadInputs } from '../ingest/load-inputs.js';
import { bindParams } from '../queries/bind-params.js';
import { configParams } from '../queries/config-params.js';
import { resolveSession } from '../queries/resolve-session.js';
import { findQuery, runQuery } from '../queries/run-query.js';
import { renderTabular, type TabularFormat } from '../render/index.js';
import { parseTimeRange } from '../time/parse-time.js';

export interface QueryOptions {
  name: string;
  paths: string[];
  db?: string;
  param: string[];
  since?: string;
  until?: string;
  session?: string;
  config?: string;
  format: TabularFormat;
}

export async function query(options: QueryOptions, progress: Progress): Promise<CommandResult> {
  const canned = findQuery(options.name);
  const config = await loadConfig({ root: process.cwd(), configPath: options.config });
  const range = parseTimeRange(options.since, options.until);
  const window = { since: range.since?.date, until: range.until?.date };
  const since = range.since?.iso;
  const until = range.until?.iso;
  // --param session=X is --session X: resolved the same way (prefix, 8-hex suffix).
  const isSession = (p: string) => p.startsWith('session=') && !/^session=null$/i.test(p);
  const sessionParams = options.param.filter(isSession);
  const params = options.param.filter((p) => !isSession(p));
  if (sessionParams.length + (options.session !== undefined ? 1 : 0) > 1) throw new UsageError('give the session once: --session ID or --param session=ID');
  const sessionText = options.session ?? sessionParams[0]?.slice('session='.length);
  // Validate every parameter before reading any input.
  bindParams(canned, { params, since, until, session: sessionText });
  const { db, warnings } = await loadInputs({ paths: options.paths, db: options.db, window }, progress);
  try {
    const session = sessionText !== undefined ? await resolveSession(db, sessionText) : undefined;
    const bound = bindParams(canned, {
      params, since, until, session, fromConfig: configParams(config),
    });
    const table = await runQuery(db, canned, bound);
    return { output: renderTabular(table, options.format), exitCode: ExitCode.ok, warnings };
  } finally {
    db.close();
  }
}
