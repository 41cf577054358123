import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkJson, runCli } from '../checks/run-cli.js';
import { tempDir } from '../helpers/run-cli.js';

// Calls whose text holds a template with `${…}` and a regex: a bare scanner read the template text
// after `${…}` and the regex as code, so that the hash kept whitespace and quotes (a reformat broke
// the entry) and dropped what followed an apostrophe or `//` (a real change passed).
const source = `interface Client { sendMessageStream(q: string, o?: object): AsyncGenerator<string> }
export function ask(client: Client, name: string) {
  return client.sendMessageStream(\`\${name}'s turn\`, { model: 'small' });
}
export function cite(client: Client, q: string) {
  return client.sendMessageStream(\`\${q} (see https://docs.example.com/a)\`, { timeoutMs: 30_000 });
}
export function strip(client: Client, q: string) {
  return client.sendMessageStream(q.replace(/'/g, ''), { model: 'small' });
}
export function long(client: Client, q: string) {
  return client.sendMessageStream(\`first \${q}
second line's text\`);
}
`;

/** What prettier 3 with its default options writes for \`source\` (double quotes, a wrapped object). */
const prettierOutput = source
  .replaceAll("'small'", '"small"')
  .replace("''", '""')
  .replace('{ timeoutMs: 30_000 });', '{\n    timeoutMs: 30_000,\n  });');

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function tree(text: string): { dir: string; write: (next: string) => void } {
  const { dir, cleanup } = tempDir('trajaudit-templates-');
  cleanups.push(cleanup);
  mkdirSync(path.join(dir, 'src/agent'), { recursive: true });
  const write = (next: string) => writeFileSync(path.join(dir, 'src/agent/ask.ts'), next);
  write(text);
  return { dir, write };
}

async function baseline(dir: string): Promise<void> {
  const run = await runCli(['check', dir, '--update-baseline', '--allow-additions']);
  expect(run.code, run.stderr).toBe(0);
}

describe('baseline hash of calls holding templates and regexes', () => {
  it('a prettier reformat keeps every entry baselined', async () => {
    const t = tree(source);
    await baseline(t.dir);
    t.write(prettierOutput);
    const { json, run } = await checkJson([t.dir, '--strict']);
    expect(json.summary).toMatchObject({ new: 0, baselined: 4, stale: 0 });
    expect(run.code).toBe(0);
  });

  it('a CRLF checkout keeps a multi-line template baselined', async () => {
    const t = tree(source);
    await baseline(t.dir);
    t.write(source.replaceAll('\n', '\r\n'));
    const { json, run } = await checkJson([t.dir, '--strict']);
    expect(json.summary).toMatchObject({ new: 0, baselined: 4, stale: 0 });
    expect(run.code).toBe(0);
  });

  it('an argument changed after the template fails', async () => {
    const t = tree(source);
    await baseline(t.dir);
    t.write(source.replace('{ timeoutMs: 30_000 }', '{ retries: 0 }'));
    const { json, run } = await checkJson([t.dir]);
    expect(json.findings.filter((f) => f.state === 'new').map((f) => f.scope)).toEqual(['cite']);
    expect(run.code).toBe(1);
  });

  it('template text changed after an apostrophe fails, and so does an argument after a regex', async () => {
    const t = tree(source);
    await baseline(t.dir);
    t.write(source.replace("'s turn`, { model: 'small' }", "'s turn`, { model: 'large' }").replace("/'/g, ''), { model: 'small' }", "/'/g, ''), { model: 'large' }"));
    const { json, run } = await checkJson([t.dir]);
    expect(json.findings.filter((f) => f.state === 'new').map((f) => f.scope)).toEqual(['ask', 'strip']);
    expect(run.code).toBe(1);
  });

  it('an anchor holds the template text and the regex as written, on one line', async () => {
    const t = tree(source.replace('client.sendMessageStream(q.replace', "[`${q}'s\nnext`.match(/a'b/g)][0].sendMessageStream(q.replace"));
    const { json } = await checkJson([t.dir]);
    expect(json.findings.find((f) => f.scope === 'strip')?.anchor).toBe("[`${q}'s\\nnext`.match(/a'b/g)][0].sendMessageStream");
  });

  it('a baseline written before the scanner was fixed still matches unchanged code', async () => {
    const t = tree(source.split('export function long')[0]);
    // Written by the version before 2026-12-01 for the first three functions of `source`.
    const old = [
      { scope: 'ask', hash: 'e23b976866c2' },
      { scope: 'cite', hash: '9a692e0d28e2' },
      { scope: 'strip', hash: '2bb235b2cbc6' },
    ].map((e) => JSON.stringify({ rule: 'direct-provider-call', file: 'src/agent/ask.ts', scope: e.scope, anchor: 'client.sendMessageStream', hash: e.hash, count: 1 }));
    writeFileSync(path.join(t.dir, 'trajaudit-baseline.json'), `{"version": 1, "entries": [${old.join(',')}]}\n`);
    const { json, run } = await checkJson([t.dir, '--strict']);
    expect(json.summary).toMatchObject({ new: 0, baselined: 3, stale: 0 });
    expect(run.code).toBe(0);
  });
});

describe('baseline hash of a name spelled with escapes', () => {
  const escaped = 'declare const client: any;\nexport function turn(prompt: string) {\n  return client.sendMessage\\u0053tream(prompt);\n}\n';

  it('prettier writing the name plainly keeps the entry baselined', async () => {
    const t = tree(escaped);
    await baseline(t.dir);
    t.write(escaped.replace('\\u0053', 'S'));
    const { json, run } = await checkJson([t.dir, '--strict']);
    expect(json.summary).toMatchObject({ new: 0, baselined: 1, stale: 0 });
    expect(run.code).toBe(0);
  });

  it('a baseline written before names were decoded still matches the unchanged code', async () => {
    const t = tree(escaped);
    const entry = { rule: 'direct-provider-call', file: 'src/agent/ask.ts', scope: 'turn', anchor: 'client.sendMessageStream', hash: '69c8741ed7e8', count: 1 };
    writeFileSync(path.join(t.dir, 'trajaudit-baseline.json'), `{"version": 1, "entries": [${JSON.stringify(entry)}]}\n`);
    const { json, run } = await checkJson([t.dir, '--strict']);
    expect(json.summary).toMatchObject({ new: 0, baselined: 1, stale: 0 });
    expect(run.code).toBe(0);
  });
});
