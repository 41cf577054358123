import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding } from '../baseline/types.js';
import type { CheckReport } from './types.js';

const baselineStates = { new: 'new', baselined: 'unchanged' } as const;

/**
 * SARIF 2.1.0 as GitHub code scanning accepts it. URIs are relative to the repository's top
 * (`report.base`, %SRCROOT%, spelled out in `originalUriBaseIds`), where GitHub looks for them.
 */
export default function renderSarif(report: CheckReport): string {
  const ruleIndex = new Map(report.rules.map((rule, i) => [rule.id, i]));
  const uriOf = (file: string) => file.split('/').map(encodeURIComponent).join('/');
  const locationOf = (file: string) => ({ artifactLocation: { uri: uriOf(file), uriBaseId: '%SRCROOT%' } });
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
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(path.join(report.base.dir, path.sep)).href } },
        columnKind: 'utf16CodeUnits',
        results: report.findings.map((f) => result(f, ruleIndex.get(f.rule) ?? 0, locationOf(path.posix.join(report.base.root, f.file)))),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

function result(f: Finding, ruleIndex: number, location: object) {
  const state = f.state === 'new' || f.state === 'baselined' ? baselineStates[f.state] : undefined;
  return {
    ruleId: f.rule,
    ruleIndex,
    level: f.severity,
    message: { text: f.message },
    locations: [{ physicalLocation: { ...location, region: { startLine: f.line, startColumn: f.column } } }],
    partialFingerprints: { 'trajaudit/v1': f.fingerprint },
    ...(state ? { baselineState: state } : {}),
    ...(f.state === 'allowed' ? { suppressions: [{ kind: 'external', justification: f.allowReason ?? '' }] } : {}),
    properties: { scope: f.scope, anchor: f.anchor, resolution: f.resolution, state: f.state },
  };
}
