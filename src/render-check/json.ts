import type { CheckReport } from './types.js';

/**
 * The contract of docs/checks.md#outputs: `{ version: 1, findings, summary }`. Beyond the required finding keys:
 * severity, scope, anchor, resolution (`syntactic` | `resolved` | `unresolved`), reason (allowed
 * findings) and details; `stale` lists baseline entries no finding accounts for.
 */
export default function renderJson(report: CheckReport): string {
  const findings = report.findings.map((f) => ({
    rule: f.rule,
    file: f.file,
    line: f.line,
    column: f.column,
    message: f.message,
    state: f.state,
    fingerprint: f.fingerprint,
    severity: f.severity,
    scope: f.scope,
    anchor: f.anchor,
    resolution: f.resolution,
    ...(f.allowReason !== undefined ? { reason: f.allowReason } : {}),
    ...(f.details ? { details: f.details } : {}),
  }));
  return `${JSON.stringify({ version: 1, findings, stale: report.stale, summary: report.summary }, null, 2)}\n`;
}
