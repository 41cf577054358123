import path from 'node:path';
import type { BaselineEntry } from '../baseline/types.js';
import { visibleText } from '../render/visible-text.js';
import { staleEntryMessage } from './stale-entry.js';
import { summaryLine } from './summary-line.js';
import type { CheckReport } from './types.js';

// GitHub workflow commands: data escapes %, CR, LF; property values also escape ':' and ','.
// File names and messages come from the repository checked: control characters in them (an ESC
// sequence that retitles the window or clears the screen, U+202E) are shown as \u escapes first,
// as in the text format (visible-text.ts), since a CI log is read in a terminal too.
const escapeData = (s: string) => visibleText(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
const command = (level: string, props: Array<[string, string | number]>, message: string) =>
  `::${level} ${props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',')}::${escapeData(message)}`;

/**
 * Paths are from the repository's top (`report.base`), where GitHub looks for them.
 * One annotation per new finding (baselined, allowed and info findings stay quiet), one per stale
 * baseline entry, then a plain summary line. Stale entries are annotated because under `--strict`
 * they alone can fail the run, and a CI log must then say which entries and what to do.
 */
export default function renderGithub(report: CheckReport): string {
  const lines = report.findings
    .filter((f) => f.state === 'new')
    .map((f) =>
      command(
        f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice',
        [['file', path.posix.join(report.base.root, f.file)], ['line', f.line], ['col', f.column], ['title', `trajaudit ${f.rule}`]],
        f.message,
      ),
    );
  for (const e of report.stale) lines.push(staleAnnotation(e, report));
  lines.push(`trajaudit: ${summaryLine(report.summary)}`);
  return `${lines.join('\n')}\n`;
}

// An error when --strict makes it fatal (it is then what fails the run), a notice otherwise.
function staleAnnotation(e: BaselineEntry, report: CheckReport): string {
  const props: Array<[string, string]> = [['file', report.base.baselineFile], ['title', 'trajaudit stale baseline entry']];
  return command(report.strict ? 'error' : 'notice', props, staleEntryMessage(e, report));
}
