// What `trajaudit queries` says of a canned query: the one-line summary the list shows, the fields
// of its machine form, and the entry `queries NAME` prints: description, parameters, columns,
// its SQL file and the section of docs/queries.md that explains it.
import stringWidth from 'string-width';
import { wrapText } from '../render/wrap-text.js';
import renderMarkdown, { escapeMarkdownCell } from '../render/markdown.js';
import type { Row } from '../render/types.js';
import { inlineText } from '../render/visible-text.js';
import { CONFIG_PARAM_KEYS } from './config-params.js';
import { type CannedQuery, packagePath, type QueryParam } from './load-queries.js';

/** The machine form's keys, in order (docs/queries.md#listing-the-queries names each). */
export const QUERY_FIELDS = ['name', 'description', 'params', 'columns', 'sql', 'docs'];

/** The parameters `query` binds from the options of their name (query.ts); the others are set by --param. */
const OPTION_PARAMS = new Set(['since', 'until', 'session']);

/** The description's first sentence: what the list shows of it. */
export function querySummary(query: CannedQuery): string {
  return /^.*?[.?!](?=\s|$)/s.exec(query.description)?.[0] ?? query.description;
}

/** The section of docs/queries.md headed by the query's name. */
function docsSection(query: CannedQuery): string {
  return `docs/queries.md#${query.name}`;
}

/** The machine form (json, csv): every field in full, each a string, so that csv keeps one row per query. */
export function queryFields(query: CannedQuery): Row {
  return {
    name: query.name,
    description: query.description,
    params: query.params.map((p) => `${p.name} ${p.type} = ${p.defaultText}`).join('; '),
    columns: query.columns.join(', '),
    sql: packagePath(query),
    docs: docsSection(query),
  };
}

/** How a parameter is given on the command line, and the config key that sets it, if any. */
function setBy(param: QueryParam): string {
  const flag = OPTION_PARAMS.has(param.name) ? `--${param.name}` : `--param ${param.name}=…`;
  const key = CONFIG_PARAM_KEYS[param.name as keyof typeof CONFIG_PARAM_KEYS];
  return key === undefined ? flag : `${flag}, or ${key} in trajaudit.config.json`;
}

const PARAM_HEAD = ['name', 'type', 'default', 'set by'];
const paramCells = (p: QueryParam) => [p.name, p.type, p.defaultText, setBy(p)];

/** `queries NAME` for the terminal; with a width, the description and columns wrap to it. */
export function queryEntryText(query: CannedQuery, width?: number): string {
  const indent = '  ';
  const wrapped = (text: string) => {
    const shown = inlineText(text);
    const lines = width === undefined ? shown : wrapText(shown, Math.max(width - indent.length, 20));
    return lines.split('\n').map((line) => `${indent}${line}`);
  };
  const rows = [PARAM_HEAD, ...query.params.map(paramCells)].map((cells) => cells.map(inlineText));
  const widths = PARAM_HEAD.map((_, c) => rows.reduce((most, cells) => Math.max(most, stringWidth(cells[c])), 0));
  const pad = (text: string, c: number) => (c === widths.length - 1 ? text : `${text}${' '.repeat(widths[c] - stringWidth(text))}`);
  const params = query.params.length === 0 ? [`${indent}none`] : rows.map((cells) => `${indent}${cells.map(pad).join('  ')}`);
  return [
    inlineText(query.name),
    ...wrapped(query.description),
    '',
    'Parameters:',
    ...params,
    '',
    'Columns:',
    ...wrapped(query.columns.join(', ')),
    '',
    `SQL:   ${packagePath(query)}`,
    `Docs:  ${docsSection(query)}`,
    `Run:   trajaudit query ${query.name} [paths…] [--db F]`,
    '',
  ].join('\n');
}

/** `queries NAME --format md`: the entry as a Markdown section. */
export function queryEntryMarkdown(query: CannedQuery): string {
  const code = (text: string) => `\`${text}\``;
  const params = query.params.length === 0
    ? 'Parameters: none.\n'
    : renderMarkdown({ columns: PARAM_HEAD, rows: query.params.map((p) => Object.fromEntries(PARAM_HEAD.map((h, c) => [h, paramCells(p)[c]]))) });
  return [
    `## ${escapeMarkdownCell(query.name)}`,
    '',
    escapeMarkdownCell(query.description),
    '',
    params,
    `Columns: ${query.columns.map(code).join(', ')}`,
    '',
    `SQL: ${code(packagePath(query))}. Explained in ${code(docsSection(query))}.`,
    '',
  ].join('\n');
}
