import type { Finding } from '../baseline/types.js';
import type { CheckReport } from './types.js';

const baselineStates = { new: 'new', baselined: 'unchanged' } as const;

/** SARIF 2.1.0 as GitHub code scanning accepts it; URIs are relative to the checked root (%SRCROOT%). */
export default function renderSarif(report: CheckReport): string {
  const ruleIndex = new Map(report.rules.map((rule, i) => [rule.id, i]));
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'trajaudit',
            version: report.toolVersion,
            rules: report.rules.map((rule) => ({
              id: rule.id,
              name: rule.id.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase()),
              shortDescription: { text: rule.title },
              fullDescription: { text: rule.description },
              help: { text: rule.description },
              defaultConfiguration: { level: rule.defaultSeverity },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results: report.findings.map((f) => result(f, ruleIndex.get(f.rule) ?? 0)),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

function result(f: Finding, ruleIndex: number) {
  const state = f.state === 'new' || f.state === 'baselined' ? baselineStates[f.state] : undefined;
  return {
    ruleId: f.rule,
    ruleIndex,
    level: f.severity,
    message: { text: f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: f.file.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' },
          region: { startLine: f.line, startColumn: f.column },
        },
      },
    ],
    partialFingerprints: { 'trajaudit/v1': f.fingerprint },
    ...(state ? { baselineState: state } : {}),
    ...(f.state === 'allowed' ? { suppressions: [{ kind: 'external', justification: f.allowReason ?? '' }] } : {}),
    properties: { scope: f.scope, anchor: f.anchor, resolution: f.resolution, state: f.state },
  };
}
