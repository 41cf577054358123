import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkJson, copyFixture, repoRoot } from '../checks/run-cli.js';

// The `json` entry under "Outputs" in docs/checks.md is the contract for scripts reading `check
// --format json`: every key the document holds, and every value of the enumerated ones, must be
// named there.
let cleanup = () => {};
afterEach(() => cleanup());

function docJsonEntry(): string {
  const doc = readFileSync(path.join(repoRoot, 'docs/checks.md'), 'utf8');
  const outputs = doc.indexOf('\n## Outputs\n');
  expect(outputs, 'docs/checks.md: no "## Outputs" section').toBeGreaterThan(0);
  const start = doc.indexOf('\n- `json`:', outputs);
  const end = doc.indexOf('\n- `sarif`:', start);
  expect(start, 'docs/checks.md: no `json` entry under Outputs').toBeGreaterThan(outputs);
  expect(end, 'docs/checks.md: no `sarif` entry after the `json` one').toBeGreaterThan(start);
  return doc.slice(start, end);
}

/** A copy of fixtures/check-baseline with one call fixed: one stale entry. */
function withStaleEntry(): string {
  const copy = copyFixture('check-baseline');
  cleanup = copy.cleanup;
  const file = path.join(copy.dir, 'src/agent/loop.ts');
  writeFileSync(file, readFileSync(file, 'utf8').replace("yield* this.client.sendMessageStream(history, { model: 'small' });", "yield 'summary';"));
  return copy.dir;
}

describe('docs/checks.md documents the check JSON document', () => {
  it('every key and every enumerated value the fixtures produce', async () => {
    const documents = [];
    for (const root of ['fixtures/check-call-forms', 'fixtures/check-stateful-scopes', 'fixtures/check-dead-catch', withStaleEntry()]) documents.push((await checkJson([root])).json);
    const named = new Set<string>();
    for (const json of documents) {
      for (const key of Object.keys(json)) named.add(key);
      for (const key of Object.keys(json.summary)) named.add(key);
      for (const entry of json.stale) for (const key of Object.keys(entry)) named.add(key);
      for (const f of json.findings) {
        for (const key of Object.keys(f)) named.add(key);
        for (const value of [f.state, f.severity, f.resolution]) named.add(value);
        for (const [key, value] of Object.entries(f.details ?? {})) {
          named.add(key);
          if (key !== 'className') named.add(value);
        }
      }
    }
    expect(documents.at(-1)!.stale).toHaveLength(1);
    for (const key of ['reason', 'details', 'stale', 'singleton']) expect(named).toContain(key);
    const entry = docJsonEntry();
    const missing = [...named].filter((key) => !entry.includes(`\`${key}\``) && !entry.includes(`"${key}"`));
    expect(missing).toEqual([]);
  });
});
