import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkJson, copyFixture, runCli } from '../checks/run-cli.js';
import { tempDir } from '../helpers/run-cli.js';

// fixtures/check-baseline holds 4 direct calls and the baseline that records them.
let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

async function scenario(mutate: (edit: (file: string, change: (text: string) => string) => void, dir: string) => void) {
  const copy = copyFixture('check-baseline');
  cleanups.push(copy.cleanup);
  const baselineFile = path.join(copy.dir, 'trajaudit-baseline.json');
  const before = readFileSync(baselineFile, 'utf8');
  mutate((file, change) => {
    const abs = path.join(copy.dir, file);
    const text = readFileSync(abs, 'utf8');
    const next = change(text);
    if (next === text) throw new Error(`mutation of ${file} changed nothing`);
    writeFileSync(abs, next);
  }, copy.dir);
  const { json, run } = await checkJson([copy.dir]);
  return { json, run, dir: copy.dir, baselineFile, before, baselineUnchanged: () => readFileSync(baselineFile, 'utf8') === before };
}

const states = (json: Awaited<ReturnType<typeof checkJson>>['json']) => json.findings.map((f) => `${f.file}:${f.line} ${f.state}`);

describe('baseline survives code moving', () => {
  it('unchanged tree: all baselined, exit 0', async () => {
    const { json, run } = await scenario(() => {});
    expect(run.code).toBe(0);
    expect(json.summary).toMatchObject({ new: 0, baselined: 4, stale: 0, failed: false });
  });

  it('line shift', async () => {
    const s = await scenario((edit) => edit('src/agent/loop.ts', (t) => `// header\n// more header\n\n${t}`));
    expect(s.run.code).toBe(0);
    expect(states(s.json)).toContain('src/agent/loop.ts:10 baselined');
    expect(s.baselineUnchanged()).toBe(true);
  });

  it('reformat: line breaks, quotes, trailing commas', async () => {
    const s = await scenario((edit) =>
      edit('src/agent/loop.ts', (t) =>
        t.replace("this.client.sendMessageStream(history, { model: 'small' })", 'this.client\n      .sendMessageStream(\n        history,\n        { model: "small", },\n      )'),
      ),
    );
    expect(s.run.code).toBe(0);
    expect(s.json.summary).toMatchObject({ new: 0, baselined: 4, stale: 0 });
    expect(s.baselineUnchanged()).toBe(true);
  });

  it('move a method within the file', async () => {
    const s = await scenario((edit) =>
      edit('src/agent/loop.ts', (t) => {
        const turn = t.slice(t.indexOf('  async *turn'), t.indexOf('  async *summarize'));
        return t.replace(turn, '').replace(/\n}\n$/, `\n${turn.trimEnd()}\n}\n`);
      }),
    );
    expect(s.run.code).toBe(0);
    expect(s.json.summary).toMatchObject({ new: 0, baselined: 4 });
  });

  it('move a call into another function of the same file (scope changes, text does not)', async () => {
    const s = await scenario((edit) =>
      edit('src/agent/loop.ts', (t) =>
        t.replace('async *turn(messages: string[]) {', 'async *nextTurn(messages: string[]) {'),
      ),
    );
    expect(s.run.code).toBe(0);
    expect(s.json.findings.find((f) => f.line === 7)?.scope).toBe('AgentLoop.nextTurn');
    expect(s.json.summary).toMatchObject({ new: 0, stale: 0 });
  });

  it('extract a method: the call moves into a new method that its old one calls', async () => {
    const s = await scenario((edit) =>
      edit('src/agent/loop.ts', (t) =>
        t.replace(
          '    yield* this.client.sendMessageStream(messages);\n  }\n',
          '    yield* this.send(messages);\n  }\n\n  private async *send(messages: string[]) {\n    yield* this.client.sendMessageStream(messages);\n  }\n',
        ),
      ),
    );
    expect(s.json.findings.find((f) => f.scope === 'AgentLoop.send')?.state).toBe('baselined');
    expect(s.json.summary).toMatchObject({ new: 0, stale: 0 });
    expect(s.run.code).toBe(0);
  });

  it('fix a call and add one of the same text in a new method, the old method staying: new + stale, exit 1', async () => {
    const s = await scenario((edit) =>
      edit('src/agent/loop.ts', (t) =>
        t
          .replace('    yield* this.client.sendMessageStream(messages);\n', "    yield 'through the funnel';\n")
          .replace(/\n}\n$/, '\n\n  async *plan(messages: string[]) {\n    yield* this.client.sendMessageStream(messages);\n  }\n}\n'),
      ),
    );
    expect(s.json.findings.find((f) => f.scope === 'AgentLoop.plan')?.state).toBe('new');
    expect(s.json.stale.map((e) => e.scope)).toEqual(['AgentLoop.turn']);
    expect(s.run.code).toBe(1);
  });

  it('move a function, unchanged, into another existing file (its old file stays)', async () => {
    const s = await scenario((edit) => {
      let moved = '';
      edit('src/agent/retry.ts', (t) => {
        moved = t.slice(t.indexOf('export async function* retryOnce'));
        return t.replace(moved, 'export const retries = 1;\n');
      });
      edit('src/agent/loop.ts', (t) => `${t}\n${moved}`);
    });
    expect(s.run.code).toBe(0);
    expect(s.json.summary).toMatchObject({ new: 0, baselined: 4, stale: 0 });
    expect(states(s.json).filter((state) => state.startsWith('src/agent/loop.ts'))).toHaveLength(4);
    expect(s.baselineUnchanged()).toBe(true);
  });

  it('rename a file', async () => {
    const s = await scenario((_edit, dir) => renameSync(path.join(dir, 'src/agent/retry.ts'), path.join(dir, 'src/agent/retrying.ts')));
    expect(s.run.code).toBe(0);
    expect(states(s.json)).toEqual([
      'src/agent/loop.ts:7 baselined',
      'src/agent/loop.ts:11 baselined',
      'src/agent/retrying.ts:5 baselined',
      'src/agent/retrying.ts:7 baselined',
    ]);
    expect(s.baselineUnchanged()).toBe(true);
  });
});

// A call whose text holds what formatters disagree on: a semicolon in a callback, parentheses
// around a lone arrow parameter, a quoted key, parentheses around a literal.
const formatted = [
  'declare const client: any;',
  'declare function log(c: unknown): void;',
  'export function turn(prompt: string) {',
  '  return client.sendMessageStream({ prompt, "onChunk": (c) => { log(c); }, retries: (1), limit: 0x10 });',
  '}',
  '',
].join('\n');

async function formattedTree(baseline?: string) {
  const tree = tempDir('trajaudit-formatted-');
  cleanups.push(tree.cleanup);
  mkdirSync(path.join(tree.dir, 'src/agent'), { recursive: true });
  writeFileSync(path.join(tree.dir, 'src/agent/loop.ts'), formatted);
  if (baseline === undefined) expect((await runCli(['check', tree.dir, '--update-baseline', '--allow-additions'])).code).toBe(0);
  else writeFileSync(path.join(tree.dir, 'trajaudit-baseline.json'), baseline);
  return tree.dir;
}

describe('baseline survives a formatter', () => {
  it.each([
    ['semi: false (a semicolon dropped in a callback)', (t: string) => t.replace('log(c); }', 'log(c) }')],
    ['arrowParens: avoid ((c) => becomes c =>)', (t: string) => t.replace('(c) =>', 'c =>')],
    ['quoteProps: as-needed ("onChunk" becomes onChunk)', (t: string) => t.replace('"onChunk"', 'onChunk')],
    ['quoteProps: consistent (retries becomes "retries")', (t: string) => t.replace('retries:', "'retries':")],
    ['redundant parentheses removed ((1) becomes 1)', (t: string) => t.replace('(1)', '1')],
    ['a number spelled another way (0x10 becomes 16)', (t: string) => t.replace('0x10', '16')],
  ])('%s: baselined, exit 0, baseline unchanged', async (_name, change) => {
    const dir = await formattedTree();
    const before = readFileSync(path.join(dir, 'trajaudit-baseline.json'), 'utf8');
    writeFileSync(path.join(dir, 'src/agent/loop.ts'), change(formatted));
    const { json, run } = await checkJson([dir]);
    expect([run.code, json.summary]).toMatchObject([0, { new: 0, baselined: 1, stale: 0 }]);
    expect(readFileSync(path.join(dir, 'trajaudit-baseline.json'), 'utf8')).toBe(before);
  });

  it('still tells apart parentheses that change the meaning', async () => {
    const dir = await formattedTree();
    writeFileSync(path.join(dir, 'src/agent/loop.ts'), formatted.replace('retries: (1)', 'retries: (1, 2)'));
    expect((await checkJson([dir])).json.summary).toMatchObject({ new: 1, stale: 1 });
  });

  it('a baseline written before 2026-11-30 (semicolons, parentheses and quoted keys in its hash) still matches', async () => {
    const oldText = 'client.sendMessageStream({prompt,"onChunk":(c)=>{log(c);},retries:(1),limit:0x10})';
    const oldHash = createHash('sha256').update(oldText).digest('hex').slice(0, 12);
    const entry = { rule: 'direct-provider-call', file: 'src/agent/loop.ts', scope: 'turn', anchor: 'client.sendMessageStream', hash: oldHash, count: 1 };
    const dir = await formattedTree(`{\n  "version": 1,\n  "entries": [\n    ${JSON.stringify(entry)}\n  ]\n}\n`);
    const { json, run } = await checkJson([dir]);
    expect([run.code, json.summary]).toMatchObject([0, { new: 0, baselined: 1, stale: 0 }]);
  });
});

describe('baseline catches real changes', () => {
  it('swap one violation for another in the same file: new + stale, exit 1', async () => {
    const s = await scenario((edit) =>
      edit('src/agent/loop.ts', (t) => t.replace('sendMessageStream(messages)', "sendMessageStream(['system', ...messages])")),
    );
    expect(s.run.code).toBe(1);
    expect(states(s.json)).toContain('src/agent/loop.ts:7 new');
    expect(s.json.stale.map((e) => `${e.file} ${e.scope} ${e.count}`)).toEqual(['src/agent/loop.ts AgentLoop.turn 1']);
  });

  it('duplicate a violation: one new, exit 1', async () => {
    const s = await scenario((edit) =>
      edit('src/agent/loop.ts', (t) =>
        t.replace('yield* this.client.sendMessageStream(messages);', 'yield* this.client.sendMessageStream(messages);\n    yield* this.client.sendMessageStream(messages);'),
      ),
    );
    expect(s.run.code).toBe(1);
    expect(s.json.summary).toMatchObject({ new: 1, baselined: 4, stale: 0 });
  });

  it('copy a function into another file while it stays in its own: the copies are new, exit 1', async () => {
    const s = await scenario((edit, dir) => {
      const retry = readFileSync(path.join(dir, 'src/agent/retry.ts'), 'utf8');
      edit('src/agent/loop.ts', (t) => `${t}\n${retry.slice(retry.indexOf('export async function* retryOnce'))}`);
    });
    expect(s.run.code).toBe(1);
    expect(s.json.summary).toMatchObject({ new: 2, baselined: 4, stale: 0 });
  });

  it('fix a violation: stale, reported, exit 0; exit 1 under --strict', async () => {
    const s = await scenario((edit) => edit('src/agent/loop.ts', (t) => t.replace("yield* this.client.sendMessageStream(history, { model: 'small' });", "yield 'summary';")));
    expect(s.run.code).toBe(0);
    expect(s.json.summary).toMatchObject({ new: 0, baselined: 3, stale: 1, failed: false });
    const strict = await runCli(['check', s.dir, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain(`stale baseline entries (fixed or gone; run trajaudit check ${s.dir} --update-baseline to drop them):\n  direct-provider-call  src/agent/loop.ts  AgentLoop.summarize  this.client.sendMessageStream\n`);
  });
});

describe('--update-baseline is a ratchet', () => {
  it('refuses to add entries without --allow-additions and leaves the file alone', async () => {
    const s = await scenario((edit) => edit('src/agent/retry.ts', (t) => t.replace('yield* client.sendMessageStream(messages);\n  }', 'yield* client.sendMessageStream(["again"]);\n  }')));
    const run = await runCli(['check', s.dir, '--update-baseline']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `trajaudit: --update-baseline refuses to add 1 new finding to ${path.join(s.dir, 'trajaudit-baseline.json')} (first: src/agent/retry.ts:5:19 direct-provider-call); fix them, or rerun with --allow-additions to accept them\n`,
    );
    expect(s.baselineUnchanged()).toBe(true);

    const accepted = await runCli(['check', s.dir, '--update-baseline', '--allow-additions']);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain('4 findings recorded, 1 added, 1 stale dropped');
    expect((await checkJson([s.dir])).json.summary).toMatchObject({ new: 0, baselined: 4, stale: 0 });
  });

  it('drops fixed entries without --allow-additions; writes sorted, one entry per line', async () => {
    const s = await scenario((edit) => edit('src/agent/loop.ts', (t) => t.replace("yield* this.client.sendMessageStream(history, { model: 'small' });", "yield 'summary';")));
    const run = await runCli(['check', s.dir, '--update-baseline']);
    expect(run.code).toBe(0);
    const lines = readFileSync(s.baselineFile, 'utf8').split('\n');
    expect(lines.slice(0, 3)).toEqual(['{', '  "version": 1,', '  "entries": [']);
    expect(lines.filter((l) => l.includes('"rule"'))).toEqual([
      '    {"rule":"direct-provider-call","file":"src/agent/loop.ts","scope":"AgentLoop.turn","anchor":"this.client.sendMessageStream","hash":"ddf6424e5b22","count":1},',
      '    {"rule":"direct-provider-call","file":"src/agent/retry.ts","scope":"retryOnce","anchor":"client.sendMessageStream","hash":"f4c1a48f409b","count":2}',
    ]);
  });
});
