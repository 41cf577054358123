// Pure: ReportData → GitHub-flavoured Markdown. Charts are referenced as SVG files beside the
// report when the caller writes them (--out), else named as omitted.
import { cellText } from '../render/cell-text.js';
import { escapeMarkdownCell } from '../render/markdown.js';
import type { Tabular } from '../render/types.js';
import { FINDINGS_TITLE, lengthText, NO_FINDINGS, reportTitle, windowText } from './header.js';
import type { ReportData, ReportSection } from './types.js';

export interface MarkdownOptions {
  /** File name for a chart's SVG, relative to the report; null when charts are not written. */
  chartFile: (id: string) => string | null;
}

const NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

export function markdownTable(t: Tabular): string {
  if (t.rows.length === 0) return '_(no rows)_\n';
  const text = t.rows.map((r) => t.columns.map((c) => cellText(r[c])));
  const right = t.columns.map((_, i) => text.every((row) => row[i] === '' || NUMBER.test(row[i])));
  const line = (cells: string[]) => `| ${cells.map(escapeMarkdownCell).join(' | ')} |`;
  return `${[line(t.columns), `|${right.map((r) => (r ? ' ---: ' : ' --- ')).join('|')}|`, ...text.map(line)].join('\n')}\n`;
}

/**
 * A relative file name as a CommonMark link destination. A bare destination ends at a space and
 * must balance its parentheses (`weekly report-x.svg` is plain text, no image), so a name with a
 * space, a parenthesis or a control character goes in `<…>`, with what `<…>` cannot hold (`<`,
 * `>`, `\`, line breaks) and `%` (so that no name reads as an escape) percent-encoded.
 */
export function linkDestination(file: string): string {
  if (!/[\s()<>\\%\x00-\x1f\x7f]/.test(file)) return file;
  return `<${file.replace(/[<>\\%\r\n]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}>`;
}

function section(s: ReportSection, options: MarkdownOptions): string {
  const parts = [`## ${s.title}\n`, `${escapeMarkdownCell(s.about)}${s.query ? ` Query: \`${s.query}\`.` : ''}\n`, markdownTable(s.table)];
  if (s.notes.length) parts.push(s.notes.map((n) => `- ${escapeMarkdownCell(n)}`).join('\n') + '\n');
  for (const extra of s.extra ?? []) parts.push(`### ${extra.title}\n`, markdownTable(extra.table));
  for (const chart of s.charts) {
    const file = options.chartFile(chart.id);
    if (file) parts.push(`![${escapeMarkdownCell(chart.title)}](${linkDestination(file)})\n`);
  }
  return parts.join('\n');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(title: string): string {
  return title.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
}

/** One line per finding, each linking to the heading of its section. */
function findings(data: ReportData): string {
  const titles = new Map(data.sections.map((s) => [s.id, s.title]));
  const lines = data.headline.map((f) => {
    const title = titles.get(f.section) ?? f.section;
    return `- ${escapeMarkdownCell(f.text)} → [${title}](#${headingAnchor(title)})`;
  });
  return `## ${FINDINGS_TITLE}\n\n${lines.length ? lines.join('\n') : `- ${NO_FINDINGS}`}\n`;
}

export function renderReportMarkdown(data: ReportData, options: MarkdownOptions): string {
  const head = [
    `# ${reportTitle(data)}\n`,
    `- Window: ${windowText(data.windows.current)} (${lengthText(data.windows.current)})`,
    `- Previous window: ${windowText(data.windows.previous)}`,
    `- Inputs: ${data.inputs.map((i) => `\`${i.replace(/`/g, "'")}\``).join(', ')}`,
    `- Δ = window minus previous window. Times are UTC; windows include their start and exclude their end.`,
    ...(data.empty ? [`- **This window holds no event**: ${escapeMarkdownCell(data.empty)}.`] : []),
    // Said once: a stream (stdout, a pipe) has no place for the charts' SVG files.
    ...(data.sections.some((s) => s.charts.length > 0 && s.charts.every((c) => options.chartFile(c.id) === null))
      ? ['- Charts are not included: Markdown written to a stream (stdout, a pipe) has no place for SVG files; pass --out FILE.md to write them beside it, or --format html.']
      : []),
    '',
  ].join('\n');
  return `${[head, findings(data), ...data.sections.map((s) => section(s, options))].join('\n')}`;
}
