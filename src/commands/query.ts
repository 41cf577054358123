import type { CommandResult, Progress } from '../command-result.js';
import { loadConfig } from '../config/load-config.js';
import { ExitCode } from '../errors.js';
import { loadInputs } from '../ingest/load-inputs.js';
import { bindParams } from '../queries/bind-params.js';
import { configParams } from '../queries/config-params.js';
import { resolveSession } from '../queries/resolve-session.js';
import { findQuery, runQuery } from '../queries/run-query.js';
import { renderTabular, type TabularFormat } from '../render/index.js';
import { parseTime } from '../time/parse-time.js';

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
  const window = {
    since: options.since ? parseTime(options.since, '--since') : undefined,
    until: options.until ? parseTime(options.until, '--until') : undefined,
  };
  // Validate every parameter before reading any input.
  bindParams(canned, { params: options.param, since: options.since, until: options.until, session: options.session });
  const { db, warnings } = await loadInputs({ paths: options.paths, db: options.db, window }, progress);
  try {
    const session = options.session ? await resolveSession(db, options.session) : undefined;
    const params = bindParams(canned, {
      params: options.param, since: options.since, until: options.until, session, fromConfig: configParams(config),
    });
    const table = await runQuery(db, canned, params);
    return { output: renderTabular(table, options.format), exitCode: ExitCode.ok, warnings };
  } finally {
    db.close();
  }
}
