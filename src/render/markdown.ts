import { cellText } from './cell-text.js';
import { visibleText } from './visible-text.js';
import { ExactNumber, type Tabular } from './types.js';

/**
 * Cell text for Markdown, shown as written: the punctuation Markdown acts on is backslash-escaped
 * (no emphasis, code, link or image syntax from a payload; `_` inside a word is left, as GFM leaves
 * it; a bare URL may still be made a link by GFM, its text unchanged), `&`, `<` and `>` become entities (no HTML or
 * entity from it), control characters show as escapes (it is often read in a terminal), and a
 * line break is a <br>, the only one a table cell can hold.
 */
export function escapeMarkdownCell(text: string): string {
  const escaped = text.replace(/\r\n/g, '\n').replace(/[\\`*[\]!~|]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\$&').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return visibleText(escaped).replace(/\n/g, '<br>');
}

/** GitHub-flavoured Markdown table; numbers are right-aligned. */
export default function renderMarkdown(t: Tabular): string {
  // No rows: the header alone (a valid GFM table), so the columns still show.
  if (t.columns.length === 0) return `_(no rows)_\n`;
  const isNumber = (v: unknown) => typeof v === 'number' || v instanceof ExactNumber;
  // Right-aligned only when it holds numbers: a column of NULLs alone is not one.
  const numeric = t.columns.map((c) => t.rows.some((r) => isNumber(r[c])) && t.rows.every((r) => r[c] === null || isNumber(r[c])));
  const head = `| ${t.columns.map(escapeMarkdownCell).join(' | ')} |`;
  const rule = `|${numeric.map((n) => (n ? ' ---: ' : ' --- ')).join('|')}|`;
  const body = t.rows.map((row) => `| ${t.columns.map((c) => escapeMarkdownCell(cellText(row[c]))).join(' | ')} |`);
  return `${[head, rule, ...body].join('\n')}\n`;
}
