import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BaselineEntry, Finding } from '../baseline/types.js';
import type { UncheckedEntry } from '../checks/discover.js';
import { notCheckedText } from './not-checked.js';
import { staleEntryMessage } from './stale-entry.js';
import type { CheckReport } from './types.js';

const baselineStates = { new: 'new', baselined: 'unchanged' } as const;

/**
 * SARIF 2.1.0 as GitHub code scanning accepts it. URIs are relative to the repository's top
 * (`report.base`, %SRCROOT%, spelled out in `originalUriBaseIds`), where GitHub looks for them.
 * Stale baseline entries have no result to carry them (nothing is left at a line), so each is a
 * tool execution notification: an error under --strict, where it alone can fail the run.
 * Baselined and allowed findings are results with `suppressions`, so that a consumer that reads
 * them does not list them as open.
 */
export default function renderSarif(report: CheckReport): string {
  const ruleIndex = new Map(report.rules.map((rule, i) => [rule.id, i]));
  const uriOf = (file: string) => file.split('/').map(encodeURIComponent).join('/');
  const artifactAt = (uri: string) => ({ artifactLocation: { uri, uriBaseId: '%SRCROOT%' } });
  const locationOf = (file: string) => artifactAt(uriOf(file));
  const staleFails = report.strict && report.stale.length > 0;
  // A file that could not be checked: the analysis is incomplete, and code scanning must not read
  // its missing results as fixed alerts (SARIF 2.1.0 §3.20.14: executionSuccessful).
  const notChecked = (u: UncheckedEntry) => ({
    level: 'error',
    message: { text: notCheckedText(u) },
    locations: [{ physicalLocation: u.uriPath ? artifactAt([uriOf(report.base.root), u.uriPath].filter(Boolean).join('/')) : locationOf(path.posix.join(report.base.root, u.file)) }],
  });
  const notification = (e: BaselineEntry) => ({
    level: report.strict ? 'error' : 'note',
    message: { text: staleEntryMessage(e, report) },
    locations: [{ physicalLocation: locationOf(report.base.baselineFile) }],
    ...(ruleIndex.has(e.rule) ? { associatedRule: { id: e.rule, index: ruleIndex.get(e.rule) } } : {}),
    // As the baseline file holds it: its `file` is relative to the checked root, like the baseline's.
    properties: { baselineEntry: e },
  });
  const notifications = [...report.unchecked.map(notChecked), ...report.stale.map(notification)];
  // A baselined or allowed finding is suppressed outside the source (SARIF 2.1.0 §3.35.2 `external`),
  // in the file that `location` names (§3.35.4): the baseline, or the config's `allow` entry with its reason.
  const suppressionsOf = (f: Finding) => {
    if (f.state === 'baselined') return [{ kind: 'external', status: 'accepted', location: { physicalLocation: locationOf(report.base.baselineFile) } }];
    if (f.state === 'allowed') {
      return [{ kind: 'external', status: 'accepted', justification: f.allowReason, location: { physicalLocation: locationOf(report.base.configFile) } }];
    }
    // An empty array, not none: a run's results carry suppressions all or none (§3.27.23), and empty is "not suppressed".
    return [];
  };
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
        invocations: [
          {
            // New findings are results, not a failure of the tool; an unchecked file fails it, and so do stale entries under --strict.
            executionSuccessful: !staleFails && report.unchecked.length === 0,
            ...(notifications.length ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(path.join(report.base.dir, path.sep)).href } },
        columnKind: 'utf16CodeUnits',
        results: report.findings.map((f) => result(f, ruleIndex.get(f.rule) ?? 0, locationOf(path.posix.join(report.base.root, f.file)), suppressionsOf(f))),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

function result(f: Finding, ruleIndex: number, location: object, suppressions: object[]) {
  const state = f.state === 'new' || f.state === 'baselined' ? baselineStates[f.state] : undefined;
  return {
    ruleId: f.rule,
    ruleIndex,
    // A suppressed result keeps its rule's level: `level` is how serious the problem is (§3.27.10), `suppressions` whether it is open.
    level: f.severity,
    message: { text: f.message },
    locations: [{ physicalLocation: { ...location, region: { startLine: f.line, startColumn: f.column } } }],
    partialFingerprints: { 'trajaudit/v1': f.fingerprint },
    ...(state ? { baselineState: state } : {}),
    suppressions,
    properties: { scope: f.scope, anchor: f.anchor, resolution: f.resolution, state: f.state },
  };
}
