import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/baseline/types.js';
import renderGithub from '../../../src/render-check/github.js';
import type { CheckReport } from '../../../src/render-check/types.js';

const finding = (over: Partial<Finding>): Finding => ({
  rule: 'direct-provider-call',
  file: 'src/a,b:c.ts',
  line: 3,
  column: 7,
  message: '100% direct\r\ncall',
  severity: 'error',
  scope: '<module>',
  anchor: 'p.sendMessageStream',
  textHash: 'x',
  resolution: 'syntactic',
  state: 'new',
  fingerprint: 'f:0',
  ...over,
});

const report = (findings: Finding[]): CheckReport => ({
  toolVersion: '0',
  rules: [],
  findings,
  stale: [],
  unchecked: [],
  base: { dir: '/repo', root: '', baselineFile: 'trajaudit-baseline.json', configFile: 'trajaudit.config.json' },
  strict: false,
  updateCommand: 'trajaudit check --update-baseline',
  summary: { filesScanned: 1, filesParsed: 1, types: false, new: 1, baselined: 0, allowed: 0, info: 0, stale: 0, unresolved: 0, failed: true },
});

describe('github annotations', () => {
  it('escape %, CR, LF in data and also : and , in properties', () => {
    expect(renderGithub(report([finding({})])).split('\n')[0]).toBe(
      '::error file=src/a%2Cb%3Ac.ts,line=3,col=7,title=trajaudit direct-provider-call::100%25 direct%0D%0Acall',
    );
  });

  it('annotate new findings only; warnings as ::warning', () => {
    const out = renderGithub(report([finding({ state: 'baselined' }), finding({ state: 'allowed' }), finding({ severity: 'warning', file: 'w.ts' })]));
    expect(out.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::warning file=w.ts,line=3,col=7,title=trajaudit direct-provider-call::100%25 direct%0D%0Acall',
    ]);
  });
});
