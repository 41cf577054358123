import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';
import { runCli } from '../checks/run-cli.js';

const fixture = 'fixtures/check-call-forms';

describe('check output formats', () => {
  it('sarif: 2.1.0, uris from the repository top, with rule descriptions, trajaudit/v1 fingerprints, baselineState and suppressions', async () => {
    const run = await runCli(['check', fixture, '--format', 'sarif']);
    expect(run.code).toBe(1);
    const sarif = JSON.parse(run.stdout);
    expect(sarif.version).toBe('2.1.0');
    const [sarifRun] = sarif.runs;
    expect(sarifRun.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['direct-provider-call', 'stateful-construction', 'dead-catch']);
    for (const rule of sarifRun.tool.driver.rules) {
      expect(rule.shortDescription.text.length).toBeGreaterThan(10);
      expect(rule.fullDescription.text.length).toBeGreaterThan(40);
    }
    const first = sarifRun.results[0];
    expect(first).toMatchObject({
      ruleId: 'direct-provider-call',
      ruleIndex: 0,
      level: 'error',
      baselineState: 'new',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'fixtures/check-call-forms/src/agent/forms.ts', uriBaseId: '%SRCROOT%' }, region: { startLine: 16, startColumn: 24 } } }],
    });
    expect(first.partialFingerprints['trajaudit/v1']).toMatch(/^[0-9a-f]{16}:0$/);
    expect(first.suppressions).toEqual([]);
    const allowed = sarifRun.results.filter((r: { suppressions: unknown[] }) => r.suppressions.length > 0);
    expect(allowed).toHaveLength(1);
    expect(allowed[0].suppressions).toEqual([
      {
        kind: 'external',
        status: 'accepted',
        justification: 'the safety classifier must fail fast, without retries',
        location: { physicalLocation: { artifactLocation: { uri: 'fixtures/check-call-forms/trajaudit.config.json', uriBaseId: '%SRCROOT%' } } },
      },
    ]);
  });

  it('github: one annotation per new finding (paths from the repository top), none for allowed', async () => {
    const run = await runCli(['check', fixture, '--format', 'github']);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(9);
    expect(lines[0]).toBe(
      '::error file=fixtures/check-call-forms/src/agent/forms.ts,line=16,col=24,title=trajaudit direct-provider-call::direct call to sendMessageStream() bypasses the resilience funnel (allowed only in src/llm/**, packages/*/src/llm/**)',
    );
    expect(run.stdout).not.toContain('src/safety/classifier.ts');
    expect(lines.at(-1)).toBe('trajaudit: 9 new, 0 baselined, 1 allowed, 0 info, 0 stale (8 files scanned, 6 parsed)');
  });

  it('md: a step summary with the counts and the new findings', async () => {
    const run = await runCli(['check', fixture, '--format', 'md']);
    expect(run.stdout.split('\n').slice(0, 5)).toEqual([
      '## trajaudit check: failed',
      '',
      '| new | baselined | allowed | info | stale | unresolved | files scanned | parsed |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      '| 9 | 0 | 1 | 0 | 0 | 0 | 8 | 6 |',
    ]);
    expect(run.stdout).toContain('| src/agent/forms.ts:16:24 | direct-provider-call |');
  });

  it('md: cells escaped as the tabular renderer escapes them, so a glob in a message does not turn bold', async () => {
    const run = await runCli(['check', fixture, '--format', 'md']);
    expect(run.stdout).toContain(
      '| src/agent/forms.ts:16:24 | direct-provider-call | direct call to sendMessageStream() bypasses the resilience funnel ' +
        '(allowed only in src/llm/\\*\\*, packages/\\*/src/llm/\\*\\*) |',
    );
    expect(run.stdout).not.toMatch(/[^\\]\*\*/);
  });

  it('md: a file name with Markdown and table syntax stays one cell, shown as written', async () => {
    const t = tempDir('trajaudit-md-names-');
    try {
      mkdirSync(path.join(t.dir, 'src'));
      writeFileSync(path.join(t.dir, 'src/__x__ *|<b>`[y](z).ts'), 'declare const p: any;\nexport const f = () => p.sendMessageStream(1);\n');
      const run = await runCli(['check', t.dir, '--format', 'md']);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('| src/\\_\\_x\\_\\_ \\*\\|&lt;b&gt;\\`\\[y\\](z).ts:2:26 | direct-provider-call |');
    } finally {
      t.cleanup();
    }
  });
});
