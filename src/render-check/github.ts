import { summaryLine } from './summary-line.js';
import type { CheckReport } from './types.js';

// GitHub workflow commands: data escapes %, CR, LF; property values also escape ':' and ','.
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One annotation per new finding (baselined, allowed and info findings stay quiet), then a plain summary line. */
export default function renderGithub(report: CheckReport): string {
  const lines = report.findings
    .filter((f) => f.state === 'new')
    .map((f) => {
      const command = f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'notice';
      const props = [`file=${f.file}`, `line=${f.line}`, `col=${f.column}`, `title=trajaudit ${f.rule}`].map((p) => {
        const eq = p.indexOf('=');
        return `${p.slice(0, eq)}=${escapeProperty(p.slice(eq + 1))}`;
      });
      return `::${command} ${props.join(',')}::${escapeData(f.message)}`;
    });
  lines.push(`trajaudit: ${summaryLine(report.summary)}`);
  return `${lines.join('\n')}\n`;
}
