import type { Finding } from '../baseline/types.js';
import { escapeMarkdownCell } from '../render/markdown.js';
import type { CheckReport } from './types.js';

// Every cell escaped as the tabular renderer does: a message such as "allowed only in src/llm/**,
// packages/*/src/llm/**" must not turn bold. So no code spans either: an escape shows inside one.
const row = (cells: Array<string | number>) => `| ${cells.map((c) => escapeMarkdownCell(String(c))).join(' | ')} |`;
const alignments = (list: Array<'---' | '---:'>) => `| ${list.join(' | ')} |`;

/** A GitHub step summary: counts, new findings, stale entries, and the stateful-construction inventory per class. */
export default function renderMarkdown(report: CheckReport): string {
  const s = report.summary;
  const out: string[] = [`## trajaudit check: ${s.failed ? 'failed' : 'passed'}`, ''];
  out.push(row(['new', 'baselined', 'allowed', 'info', 'stale', 'unresolved', 'files scanned', 'parsed']));
  out.push(alignments(Array(8).fill('---:')));
  out.push(row([s.new, s.baselined, s.allowed, s.info, s.stale, s.unresolved, s.filesScanned, s.filesParsed]), '');
  const fresh = report.findings.filter((f) => f.state === 'new');
  if (fresh.length) {
    out.push('### New findings', '', row(['where', 'rule', 'message']), alignments(['---', '---', '---']));
    for (const f of fresh) out.push(row([`${f.file}:${f.line}:${f.column}`, f.rule, f.message]));
    out.push('');
  }
  if (report.stale.length) {
    out.push('### Stale baseline entries', '', row(['rule', 'file', 'scope', 'anchor', 'count']), alignments(['---', '---', '---', '---', '---:']));
    for (const e of report.stale) out.push(row([e.rule, e.file, e.scope, e.anchor, e.count]));
    out.push('');
  }
  // Joined, not push(...): an inventory can have more lines than a call can take arguments.
  const lines = [...out, ...inventory(report.findings.filter((f) => f.rule === 'stateful-construction'))];
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Per class: where each instance is built, so a reader sees "built once at startup" vs "one per subagent". */
function inventory(sites: Finding[]): string[] {
  if (sites.length === 0) return [];
  const byClass = new Map<string, Finding[]>();
  for (const site of sites) {
    const name = site.details?.className ?? site.anchor;
    const list = byClass.get(name);
    if (list) list.push(site);
    else byClass.set(name, [site]);
  }
  const out = ['### Stateful construction inventory', ''];
  for (const [name, list] of [...byClass].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.push(`#### ${escapeMarkdownCell(name)} (${list.length} site${list.length === 1 ? '' : 's'})`, '');
    out.push(row(['scope', 'built in', 'where', 'via', 'state']), alignments(['---', '---', '---', '---', '---']));
    for (const f of list) {
      out.push(row([f.details?.scopeKind ?? '', f.scope, `${f.file}:${f.line}`, f.details?.via ?? '', f.state]));
    }
    out.push('');
  }
  return out;
}
