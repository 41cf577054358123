import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../checks/run-cli.js';
import { CLI, REPO, runBinary, tempDir } from '../helpers/run-cli.js';

// TypeScript's checker can need more heap than there is (zod's own tests: over 4 GB). In the main
// thread V8 ended the process with "FATAL ERROR: … JavaScript heap out of memory", a native stack
// trace and exit 134. A run that uses the type checker now runs in a worker with the process's
// heap limit, and says what to do. A heap too small for TypeScript's own library files stands in for a type-heavy tree.
const fixture = 'fixtures/check-dead-catch';
const message = (root: string) =>
  "trajaudit: check ran out of memory in TypeScript's type checker (--types, or a rule's receiverTypes): it needed more than the 40 MB JavaScript heap " +
  `for the files under ${root}; run check without the type checker, leave the type-heavy files out (the config's "exclude", or "includeTests": false ` +
  'for a rule that reads tests), or raise the heap with NODE_OPTIONS=--max-old-space-size=<MB>\n';
const tinyHeap = { NODE_OPTIONS: '--max-old-space-size=40' };

describe('check --types out of memory', () => {
  it('is one line on stderr and exit 2, not a fatal error', async () => {
    const run = await runCli(['check', fixture, '--types'], { env: tinyHeap });
    expect([run.code, run.stderr, run.stdout]).toEqual([2, message(fixture), '']);
  });

  it("takes the limit from node's own flag, which wins over NODE_OPTIONS as in node", async () => {
    const run = runBinary(['check', fixture, '--types', '--format', 'json'], { nodeArgs: ['--max-old-space-size=40'], env: { NODE_OPTIONS: '--max-old-space-size=4000' } });
    expect([run.code, run.stderr, run.stdout]).toEqual([2, message(fixture), '']);
  });

  it("also when a rule's receiverTypes, not --types, asks for the type checker", async () => {
    const typed = 'fixtures/check-call-forms';
    const run = await runCli(['check', typed, '--config', `${typed}/typed.config.json`], { env: tinyHeap });
    expect([run.code, run.stderr, run.stdout]).toEqual([2, message(typed), '']);
  });

  it('the syntactic check stays in the main thread and needs no more than that heap', async () => {
    const run = await runCli(['check', fixture, '--format', 'json'], { env: tinyHeap });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ types: false, new: 3 });
  });

  it('the same run with the default heap checks the files (control)', async () => {
    const run = await runCli(['check', fixture, '--types', '--format', 'json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout).summary).toMatchObject({ types: true, new: 4 });
  });

  it('errors thrown in the worker keep their message and exit code', async () => {
    const run = await runCli(['check', fixture, '--types', '--baseline', 'no/such/baseline.json']);
    expect([run.code, run.stderr, run.stdout]).toEqual([
      2,
      'trajaudit: baseline file not found: no/such/baseline.json; check the path, or create it with --update-baseline --allow-additions\n',
      '',
    ]);
  });
});

// The worker runs with the main thread's stack and the config check.ts read.
const work = tempDir();
afterAll(work.cleanup);
const nested = path.join(work.dir, 'nested');
fs.mkdirSync(path.join(nested, 'src'), { recursive: true });
fs.writeFileSync(path.join(nested, 'src/nested.ts'), `export interface Client { sendMessageStream(): void }\nexport const nested = ${'('.repeat(1500)}1${')'.repeat(1500)};\n`);
fs.writeFileSync(path.join(nested, 'src/agent.ts'), 'import type { Client } from "./nested.js";\nexport function ask(client: Client) {\n  return client.sendMessageStream();\n}\n');
fs.writeFileSync(path.join(nested, 'typed.config.json'), '{ "rules": { "direct-provider-call": { "receiverTypes": ["Client"] } } }\n');

describe('check: the same verdicts with and without the type checker', () => {
  for (const [label, args] of [['syntactic', []], ['--types', ['--types']], ['receiverTypes', ['--config', path.join(nested, 'typed.config.json')]]] as const) {
    it(`${label}: a file nested too deeply for the main thread's stack is not checked, exit 2`, async () => {
      const run = await runCli(['check', nested, ...args, '--format', 'json']);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('trajaudit: src/nested.ts: not checked: nested too deeply to parse (Maximum call stack size exceeded); split the expression, or exclude the file in the config\n');
      expect(JSON.parse(run.stdout).findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)).toEqual(['src/agent.ts:3']);
    });
  }

  for (const [label, args] of [['syntactic', []], ['--types', ['--types']]] as const) {
    it(`${label}: a config read from a pipe is read once`, () => {
      // Through a shell's pipe: node's own `input` is a socket, which /dev/stdin cannot open.
      const command = `echo '{ "rules": { "dead-catch": { "off": true } } }' | "${process.execPath}" "${CLI}" check ${fixture} ${args.join(' ')} --config /dev/stdin --format json`;
      const run = spawnSync('sh', ['-c', command], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TZ: 'UTC' } });
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(JSON.parse(run.stdout).summary).toMatchObject({ new: 0, types: args.length > 0 });
    });
  }
});
