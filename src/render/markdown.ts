import { cellText } from './cell-text.js';
import { visibleText } from './visible-text.js';
import { ExactNumber, type Tabular } from './types.js';

/** Cell text for Markdown: control characters shown as escapes (it is often read in a terminal). */
export function escapeMarkdownCell(text: string): string {
  return visibleText(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** GitHub-flavoured Markdown table; numbers are right-aligned. */
export default function renderMarkdown(t: Tabular): string {
  if (t.rows.length === 0) return `_(no rows)_\n`;
  const numeric = t.columns.map((c) => t.rows.every((r) => r[c] === null || typeof r[c] === 'number' || r[c] instanceof ExactNumber));
  const head = `| ${t.columns.map(escapeMarkdownCell).join(' | ')} |`;
  const rule = `|${numeric.map((n) => (n ? ' ---: ' : ' --- ')).join('|')}|`;
  const body = t.rows.map((row) => `| ${t.columns.map((c) => escapeMarkdownCell(cellText(row[c]))).join(' | ')} |`);
  return `${[head, rule, ...body].join('\n')}\n`;
}
