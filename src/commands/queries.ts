import stringWidth from 'string-width';
import type { CommandResult } from '../command-result.js';
import { ExitCode } from '../errors.js';
import { type CannedQuery, findQuery, loadQueries } from '../queries/load-queries.js';
import { QUERY_FIELDS, queryEntryMarkdown, queryEntryText, queryFields, querySummary } from '../queries/describe-query.js';
import { renderTabular, type TabularFormat } from '../render/index.js';
import { jsonText } from '../render/json-text.js';
import { renderNameList } from '../render/name-list.js';

export interface QueriesOptions {
  /** One query to show in full; none: the list. */
  name?: string;
  format: TabularFormat;
  /** Terminal width the list cuts its summaries to and an entry wraps to (cli.ts); none: no cutting. */
  width?: number;
}

/** Where to go from the list, under it: one line, or a line per sentence when the width is narrower. */
const LIST_FOOTER = ['One in full: trajaudit queries NAME.', 'Run one: trajaudit query NAME [paths…] [--db F].'];
const listFooter = (width?: number) => {
  const line = LIST_FOOTER.join(' ');
  return `\n${width !== undefined && stringWidth(line) > width ? LIST_FOOTER.join('\n') : line}\n`;
};

export async function queries(options: QueriesOptions): Promise<CommandResult> {
  const output = options.name === undefined ? list(loadQueries(), options) : entry(findQuery(options.name), options);
  return { output, exitCode: ExitCode.ok };
}

/** Human formats: one line per query, its summary. Machine formats: every field, one row per query. */
function list(all: CannedQuery[], { format, width }: QueriesOptions): string {
  if (format === 'table') return `${renderNameList(all.map((q) => ({ name: q.name, text: querySummary(q) })), width)}${listFooter(width)}`;
  if (format === 'md') return renderTabular({ columns: ['name', 'summary'], rows: all.map((q) => ({ name: q.name, summary: querySummary(q) })) }, 'md');
  return renderTabular({ columns: QUERY_FIELDS, rows: all.map(queryFields) }, format);
}

/** One query: json is one object, the list's element for it; csv its one row. */
function entry(query: CannedQuery, { format, width }: QueriesOptions): string {
  if (format === 'table') return queryEntryText(query, width);
  if (format === 'md') return queryEntryMarkdown(query);
  if (format === 'json') return `${jsonText(queryFields(query), 2)}\n`;
  return renderTabular({ columns: QUERY_FIELDS, rows: [queryFields(query)] }, format);
}
