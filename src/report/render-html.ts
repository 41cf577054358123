// Pure: ReportData → one self-contained HTML file: inline CSS and inline SVG, no script, no
// external URL. Every string is escaped; the CSP forbids scripts and loads even if one slipped in.
import { cellText } from '../render/cell-text.js';
import type { Tabular } from '../render/types.js';
import { visibleText } from '../render/visible-text.js';
import { escapeHtml } from './escape-html.js';
import { FINDINGS_TITLE, lengthText, NO_FINDINGS, reportTitle, windowText } from './header.js';
import { REPORT_CSS } from './report-css.js';
import type { ReportData, ReportSection } from './types.js';

const NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * Text → HTML, with control characters and bidi overrides shown as the tables and Markdown show
 * them (visible-text.ts): a U+202E in an agent type would make "\u202eerolpxe" read "explore" in
 * the page, and an ESC would reach the terminal when the HTML goes to stdout.
 */
const esc = (text: string) => escapeHtml(visibleText(text));

export function htmlTable(t: Tabular): string {
  if (t.rows.length === 0) return '<p class="empty">(no rows)</p>';
  const text = t.rows.map((r) => t.columns.map((c) => cellText(r[c])));
  const numeric = t.columns.map((_, i) => text.every((row) => row[i] === '' || NUMBER.test(row[i])));
  const head = t.columns.map((c, i) => `<th${numeric[i] ? ' class="num"' : ''}>${esc(c)}</th>`).join('');
  const body = text.map((row) => `<tr>${row.map((v, i) => `<td class="${numeric[i] ? 'num' : 'txt'}">${esc(v)}</td>`).join('')}</tr>`);
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body.join('\n')}\n</tbody></table>`;
}

function section(s: ReportSection): string {
  const parts = [
    `<section id="${esc(s.id)}">`,
    `<h2>${esc(s.title)}</h2>`,
    `<p class="about">${esc(s.about)}${s.query ? ` <span class="query">query <code>${esc(s.query)}</code></span>` : ''}</p>`,
    htmlTable(s.table),
  ];
  if (s.notes.length) parts.push(`<ul class="notes">${s.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
  for (const extra of s.extra ?? []) parts.push(`<h3>${esc(extra.title)}</h3>`, htmlTable(extra.table));
  for (const chart of s.charts) {
    // The SVG comes from vega, which escapes data text, and render-svg.ts rejects anything active.
    parts.push(`<figure class="chart" id="chart-${esc(chart.id)}">${chart.svg}<figcaption>${esc(chart.title)}</figcaption></figure>`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** One line per finding, each linking to its section's id. */
function findings(data: ReportData): string {
  const titles = new Map(data.sections.map((s) => [s.id, s.title]));
  const items = data.headline.map((f) => `<li>${esc(f.text)} → <a href="#${esc(f.section)}">${esc(titles.get(f.section) ?? f.section)}</a></li>`);
  return `<section id="findings" class="findings">\n<h2>${FINDINGS_TITLE}</h2>\n<ul>\n${items.length ? items.join('\n') : `<li>${esc(NO_FINDINGS)}</li>`}\n</ul>\n</section>`;
}

export function renderReportHtml(data: ReportData): string {
  const title = reportTitle(data);
  const nav = data.sections.map((s) => `<a href="#${esc(s.id)}">${esc(s.title)}</a>`).join(' · ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
<dl>
<dt>Window</dt><dd>${esc(windowText(data.windows.current))} (${esc(lengthText(data.windows.current))})</dd>
<dt>Previous window</dt><dd>${esc(windowText(data.windows.previous))}</dd>
<dt>Inputs</dt><dd>${data.inputs.map((i) => `<code>${esc(i)}</code>`).join(', ')}</dd>
</dl>
<p class="legend">Δ = window minus previous window. Times are UTC; windows include their start and exclude their end.</p>
${data.empty ? `<p class="empty"><strong>This window holds no event</strong>: ${esc(data.empty)}.</p>\n` : ''}<nav>${nav}</nav>
</header>
<main>
${[findings(data), ...data.sections.map(section)].join('\n')}
</main>
</body>
</html>
`;
}
