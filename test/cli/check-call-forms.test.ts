import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkJson, copyFixture, runCli } from '../checks/run-cli.js';

const fixture = 'fixtures/check-call-forms';
const sites = (json: Awaited<ReturnType<typeof checkJson>>['json']) =>
  json.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.details?.form} ${f.state} ${f.resolution}`);

describe('direct-provider-call: call forms (syntactic)', async () => {
  const { json, run } = await checkJson([fixture]);

  it('reports exactly the calls, at the method-name token, and exits 1', () => {
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(sites(json)).toEqual([
      'src/agent/forms.ts:16:24 call new syntactic', // plain
      'src/agent/forms.ts:20:27 call new syntactic', // this.provider!.
      'src/agent/forms.ts:24:27 call new syntactic', // this.provider?.
      'src/agent/forms.ts:28:24 call new syntactic', // ['sendMessageStream'] (at the string literal)
      'src/agent/forms.ts:33:8 call new syntactic', // multi-line: the line of the name, not of the call start
      'src/agent/forms.ts:46:30 bind new syntactic', // .bind
      'src/agent/forms.ts:51:13 destructure new syntactic', // const { sendMessageStream } = this.client
      'src/agent/forms.ts:62:23 call new syntactic', // same-named method on an unrelated class: syntax cannot tell
      'src/agent/loose.ts:5:19 call new syntactic',
      'src/safety/classifier.ts:4:36 call allowed syntactic',
    ]);
  });

  it('does not count comments, strings, templates, type positions or definitions', () => {
    const lines = json.findings.filter((f) => f.file === 'src/agent/forms.ts').map((f) => f.line);
    // 4-5: type positions; 38: comment; 39: string; 40: template; 54: typeof query; 3 of usage-meter.ts: definition.
    for (const line of [4, 5, 38, 39, 40, 54]) expect(lines).not.toContain(line);
    expect(json.findings.some((f) => f.file === 'src/agent/usage-meter.ts')).toBe(false);
  });

  it('leaves the allowed layer alone and skips test files', () => {
    const files = new Set(json.findings.map((f) => f.file));
    expect(files.has('src/llm/funnel.ts')).toBe(false);
    expect(files.has('src/agent/forms.test.ts')).toBe(false);
    expect(files.has('tests/helper.ts')).toBe(false);
  });

  it('marks allow-listed calls allowed with their reason', () => {
    const allowed = json.findings.find((f) => f.state === 'allowed');
    expect(allowed?.reason).toBe('the safety classifier must fail fast, without retries');
    expect(json.summary).toMatchObject({ new: 9, allowed: 1, baselined: 0, stale: 0, unresolved: 0, failed: true, types: false });
  });

  it('carries the contract keys on every finding', () => {
    for (const f of json.findings) {
      expect(Object.keys(f)).toEqual(expect.arrayContaining(['rule', 'file', 'line', 'column', 'message', 'state', 'fingerprint']));
    }
    expect(json.version).toBe(1);
  });
});

describe('direct-provider-call: with receiverTypes (type-aware)', async () => {
  const { json, run } = await checkJson([fixture, '--config', `${fixture}/typed.config.json`]);

  it('drops the unrelated class, keeps the ModelClient calls and aliases, flags the any receiver unresolved', () => {
    expect(run.code).toBe(1);
    expect(sites(json)).toEqual([
      'src/agent/forms.ts:16:24 call new resolved',
      'src/agent/forms.ts:20:27 call new resolved',
      'src/agent/forms.ts:24:27 call new resolved',
      'src/agent/forms.ts:28:24 call new resolved',
      'src/agent/forms.ts:33:8 call new resolved',
      'src/agent/forms.ts:46:30 bind new resolved',
      'src/agent/forms.ts:51:13 destructure new resolved',
      'src/agent/loose.ts:5:19 call new unresolved',
      'src/safety/classifier.ts:4:36 call allowed resolved',
    ]);
    expect(json.summary).toMatchObject({ types: true, unresolved: 1 });
  });
});

describe('direct-provider-call: discovery', () => {
  const copy = copyFixture('check-call-forms');
  afterAll(copy.cleanup);

  it('honors .gitignore, skips node_modules, and includes tests only when the rule asks', async () => {
    const call = "import type { ModelClient } from './m.js';\nexport const x = (c: ModelClient) => c.sendMessageStream([]);\n";
    for (const rel of ['src/generated/client.ts', 'node_modules/pkg/index.ts']) {
      mkdirSync(path.dirname(path.join(copy.dir, rel)), { recursive: true });
      writeFileSync(path.join(copy.dir, rel), call);
    }
    const before = (await checkJson([copy.dir])).json;
    expect(before.findings.map((f) => f.file)).not.toContain('src/generated/client.ts');
    expect(before.findings.some((f) => f.file.startsWith('node_modules'))).toBe(false);

    writeFileSync(
      path.join(copy.dir, 'trajaudit.config.json'),
      JSON.stringify({ rules: { 'direct-provider-call': { includeTests: true } } }),
    );
    const withTests = (await checkJson([copy.dir])).json.findings.map((f) => `${f.file}:${f.line}`);
    expect(withTests).toContain('src/agent/forms.test.ts:3');
    expect(withTests).toContain('tests/helper.ts:3');
  });

  it('--rule runs only the named rule; an unknown rule is a usage error', async () => {
    expect((await checkJson([fixture, '--rule', 'dead-catch'])).json.findings).toEqual([]);
    const bad = await runCli(['check', fixture, '--rule', 'no-such-rule']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'trajaudit: unknown rule "no-such-rule" for --rule; known rules: direct-provider-call, stateful-construction, dead-catch\n',
    );
    expect(bad.stdout).toBe('');
  });
});
