import { inlineText, visibleText } from '../render/visible-text.js';
import { summaryLine } from './summary-line.js';
import type { CheckReport } from './types.js';

/** Grouped by file, then a summary line and the verdict. */
export default function renderText(report: CheckReport): string {
  const lines: string[] = [];
  let currentFile: string | undefined;
  for (const f of report.findings) {
    if (f.file !== currentFile) {
      if (currentFile !== undefined) lines.push('');
      lines.push(inlineText(f.file));
      currentFile = f.file;
    }
    const flags = [f.state, ...(f.resolution === 'unresolved' ? ['unresolved'] : [])].join(',');
    const reason = f.allowReason !== undefined ? ` (allowed: ${f.allowReason})` : '';
    lines.push(`  ${`${f.line}:${f.column}`.padEnd(8)} ${f.severity.padEnd(7)} ${flags.padEnd(14)} ${f.rule.padEnd(21)} ${f.message}${reason}`);
  }
  if (report.stale.length) {
    if (lines.length) lines.push('');
    lines.push(`stale baseline entries (fixed or gone; run ${report.updateCommand} to drop them):`);
    for (const e of report.stale) lines.push(`  ${[e.rule, e.file, e.scope, e.anchor].map(inlineText).join('  ')}${e.count > 1 ? ` ×${e.count}` : ''}`);
  }
  if (lines.length) lines.push('');
  lines.push(summaryLine(report.summary));
  // File names, messages quoting code and baseline entries come from the repository checked:
  // shown as the tables show them (visible-text.ts).
  return `${visibleText(lines.join('\n'))}\n`;
}
