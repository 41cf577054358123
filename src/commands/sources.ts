import type { CommandResult, Progress } from '../command-result.js';
import { CANNOT_READ } from '../discover/unreadable.js';
import { ExitCode } from '../errors.js';
import { loadInputs } from '../ingest/load-inputs.js';
import { renderTabular, type TabularFormat } from '../render/index.js';
import type { RenderOptions } from '../render/types.js';
import { jsonText } from '../render/json-text.js';
import type { Tabular } from '../render/types.js';

export interface SourcesOptions {
  /** --quiet: no progress, no notice of unreadable lines. */
  quiet?: boolean;
  paths: string[];
  db?: string;
  format: TabularFormat;
  /** Terminal width the table format fits to (main.ts); none: every cell whole. */
  width?: number;
  /** Whether the table format may dim NULL (main.ts: a colour terminal, NO_COLOR unset). */
  color?: boolean;
  strict?: boolean;
  /** Only this part of the ledger (csv shows one table: files unless this names another). */
  section?: SourcesSection;
}

export type SourcesSection = 'files' | 'problems' | 'skipped' | 'totals';

export interface SourcesLedger {
  files: Tabular;
  problems: Tabular;
  skipped: Tabular;
  totals: Tabular;
}

/** A record's time as written that is no time (ts NULL): which is not a malformed line, as the record is valid JSON. */
const UNSET = (json: string) => `coalesce(json_type(${json}, '$.ts'), 'NULL') <> 'NULL'`;

/**
 * Per file, the valid records whose time could not be read (2026-02-30, epoch ms where an ISO time
 * belongs): they are stored with ts NULL, their time kept as written in ts_unread (or the record).
 */
const UNREAD_TIMES = `SELECT file_id, count(*) AS n FROM (
    SELECT file_id FROM events WHERE ts_unread IS NOT NULL
    UNION ALL SELECT file_id FROM error_records WHERE ts_unread IS NOT NULL
    UNION ALL SELECT file_id FROM warn_lines WHERE ts_unread IS NOT NULL
    UNION ALL SELECT file_id FROM heartbeats WHERE ts IS NULL AND ${UNSET('record')}
    UNION ALL SELECT file_id FROM usage_ledger_rows WHERE ts IS NULL AND ${UNSET('record')}
    UNION ALL SELECT file_id FROM session_index_rows WHERE ts IS NULL AND ${UNSET('record')}
    UNION ALL SELECT file_id FROM claude_lines WHERE ts_unread IS NOT NULL)
  GROUP BY file_id`;

/**
 * A tasks dir holds thousands of `.output` files with no lines to account for: people reading a
 * table want one row per tasks dir, `tasks/*.output (N files)`, its bytes and ts_unread the sums
 * of its files' (the JSON and CSV forms keep every file). Lines, valid, blank and malformed stay
 * empty, as on each file's row: a task output is not read by line.
 */
function collapseTaskOutputs(files: Tabular): Tabular {
  const rows: Tabular['rows'] = [];
  const dirs = new Map<string, { files: number; bytes: number; tsUnread: number }>();
  for (const row of files.rows) {
    if (row.kind !== 'task-output') {
      rows.push(row);
      continue;
    }
    const dir = String(row.path).replace(/[^/]*$/, '');
    const entry = dirs.get(dir) ?? { files: 0, bytes: 0, tsUnread: 0 };
    entry.files += 1;
    entry.bytes += row.bytes as number;
    entry.tsUnread += row.ts_unread as number;
    dirs.set(dir, entry);
  }
  for (const [dir, entry] of dirs) {
    rows.push({ path: `${dir}*.output (${entry.files} files)`, kind: 'task-output', session_id: null, bytes: entry.bytes, lines: null, valid: null, blank: null, malformed: null, ts_unread: entry.tsUnread });
  }
  return { columns: files.columns, rows };
}

/**
 * JSON: `{ files, problems, skipped, totals }`; csv: the files table; table/md: every section.
 * One section: that table alone; in JSON the same value as under its key (totals: one object).
 */
function renderLedger(ledger: SourcesLedger, format: TabularFormat, section: SourcesSection | undefined, layout: RenderOptions): string {
  if (section === 'totals' && format === 'json') return `${jsonText(ledger.totals.rows[0], 2)}\n`;
  if (section) return renderTabular(section === 'files' && format !== 'json' && format !== 'csv' ? collapseTaskOutputs(ledger.files) : ledger[section], format, layout);
  if (format === 'json') {
    const rows = (t: Tabular) => t.rows;
    return `${jsonText({ files: rows(ledger.files), problems: rows(ledger.problems), skipped: rows(ledger.skipped), totals: ledger.totals.rows[0] }, 2)}\n`;
  }
  if (format === 'csv') return renderTabular(ledger.files, 'csv');
  const heading = (title: string) => (format === 'md' ? `## ${title}\n\n` : `${title}\n`);
  const sections: [string, Tabular][] = [['Files', collapseTaskOutputs(ledger.files)], ['Unreadable lines', ledger.problems], ['Skipped', ledger.skipped], ['Totals', ledger.totals]];
  return sections.map(([title, table]) => `${heading(title)}${renderTabular(table, format, layout)}`).join('\n');
}

/** Where this very output lists the unreadable lines, for the --strict warning; or how to see them. */
function problemsHint(format: TabularFormat, section?: SourcesSection): string {
  if (section === 'problems') return 'they are the rows listed';
  if (section === undefined && format === 'json') return 'they are listed under `problems`';
  if (section === undefined && format !== 'csv') return 'they are listed under "Unreadable lines"';
  return 'add `--section problems` to list them';
}

export async function sources(options: SourcesOptions, progress: Progress): Promise<CommandResult> {
  const { db, warnings } = await loadInputs({ paths: options.paths, db: options.db, quiet: options.quiet, alwaysNotices: options.strict, problemsHint: problemsHint(options.format, options.section) }, progress);
  try {
    const ledger: SourcesLedger = {
      // A Claude Code transcript's session is its records' (the file's name need not be it).
      files: await db.all(`SELECT f.path, f.kind, coalesce(f.session_id, c.session_id) AS session_id, f.bytes, f.lines, f.valid, f.blank, f.malformed, coalesce(u.n, 0) AS ts_unread
        FROM input_files f LEFT JOIN (${UNREAD_TIMES}) u USING (file_id)
        LEFT JOIN (SELECT file_id, min(session_id) AS session_id FROM claude_lines GROUP BY file_id) c USING (file_id) ORDER BY f.path`),
      problems: await db.all(`SELECT path || ':' || line AS "where", path, line, byte_offset, kind, reason, excerpt FROM input_problems ORDER BY path, line`),
      skipped: await db.all(`SELECT path, reason FROM skipped_inputs ORDER BY path`),
      totals: await db.all(`SELECT count(*) AS files, coalesce(sum(bytes), 0) AS bytes, coalesce(sum(lines), 0) AS lines,
        coalesce(sum(valid), 0) AS valid, coalesce(sum(blank), 0) AS blank, coalesce(sum(malformed), 0) AS malformed,
        (SELECT coalesce(sum(n), 0) FROM (${UNREAD_TIMES})) AS ts_unread,
        (SELECT count(*) FROM input_problems WHERE kind = 'duplicate-key') AS duplicate_keys,
        (SELECT count(*) FROM skipped_inputs) AS skipped,
        (SELECT count(*) FROM skipped_inputs WHERE starts_with(reason, '${CANNOT_READ}')) AS unreadable FROM input_files`),
    };
    const { malformed, unreadable } = ledger.totals.rows[0] as { malformed: number; unreadable: number };
    return {
      output: renderLedger(ledger, options.format, options.section, { width: options.width, color: options.color }),
      exitCode: options.strict && malformed + unreadable > 0 ? ExitCode.findings : ExitCode.ok,
      warnings: options.strict ? warnings : [],
    };
  } finally {
    db.close();
  }
}
