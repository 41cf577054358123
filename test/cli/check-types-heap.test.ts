import { describe, expect, it } from 'vitest';
import { runCli } from '../checks/run-cli.js';

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
  it('is one line on stderr and exit 2, not a fatal error', () => {
    const run = runCli(['check', fixture, '--types'], { env: tinyHeap });
    expect([run.code, run.stderr, run.stdout]).toEqual([2, message(fixture), '']);
  });

  it('takes the limit from node\'s own flag too', () => {
    const run = runCli(['check', fixture, '--types', '--format', 'json'], { nodeArgs: ['--max-old-space-size=40'] });
    expect([run.code, run.stderr, run.stdout]).toEqual([2, message(fixture), '']);
  });

  it("also when a rule's receiverTypes, not --types, asks for the type checker", () => {
    const typed = 'fixtures/check-call-forms';
    const run = runCli(['check', typed, '--config', `${typed}/typed.config.json`], { env: tinyHeap });
    expect([run.code, run.stderr, run.stdout]).toEqual([2, message(typed), '']);
  });

  it('the syntactic check stays in the main thread and needs no more than that heap', () => {
    const run = runCli(['check', fixture, '--format', 'json'], { env: tinyHeap });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ types: false, new: 3 });
  });

  it('the same run with the default heap checks the files (control)', () => {
    const run = runCli(['check', fixture, '--types', '--format', 'json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout).summary).toMatchObject({ types: true, new: 4 });
  });

  it('errors thrown in the worker keep their message and exit code', () => {
    const run = runCli(['check', fixture, '--types', '--baseline', 'no/such/baseline.json']);
    expect([run.code, run.stderr, run.stdout]).toEqual([
      2,
      'trajaudit: baseline file not found: no/such/baseline.json; check the path, or create it with --update-baseline --allow-additions\n',
      '',
    ]);
  });
});
