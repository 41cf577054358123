import type { CommandResult, Progress } from '../command-result.js';
import { ExitCode } from '../errors.js';
import { loadInputs } from '../ingest/load-inputs.js';
import { renderTabular, type TabularFormat } from '../render/index.js';

export interface LoadOptions {
  /** --quiet: no progress, no notice of unreadable lines. */
  quiet?: boolean;
  paths: string[];
  db: string;
  format: TabularFormat;
  /** Terminal width the table format fits to (main.ts); none: every cell whole. */
  width?: number;
  /** Whether the table format may dim NULL (main.ts: a colour terminal, NO_COLOR unset). */
  color?: boolean;
  strict?: boolean;
}

export async function load(options: LoadOptions, progress: Progress): Promise<CommandResult> {
  const loaded = await loadInputs({ paths: options.paths, db: options.db, quiet: options.quiet, alwaysIngest: true }, progress);
  const { db, warnings, summary } = loaded;
  try {
    const totals = (await db.all(`SELECT count(*) AS files_in_db, coalesce(sum(malformed), 0) AS malformed_lines FROM input_files`)).rows[0];
    const row = {
      files: summary?.files ?? 0,
      loaded: summary?.loaded ?? 0,
      appended: summary?.appended ?? 0,
      reloaded: summary?.reloaded ?? 0,
      unchanged: summary?.unchanged ?? 0,
      read_mib: Math.round(((summary?.bytesRead ?? 0) / 1048576) * 100) / 100,
      files_in_db: totals.files_in_db,
      malformed_lines: totals.malformed_lines,
    };
    const output = renderTabular({ columns: Object.keys(row), rows: [row] }, options.format, { width: options.width, color: options.color });
    const failed = options.strict && (totals.malformed_lines as number) > 0;
    return { output, exitCode: loaded.unreadable > 0 ? ExitCode.input : failed ? ExitCode.findings : ExitCode.ok, warnings };
  } finally {
    db.close();
  }
}
