import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';

// dead-catch on trees written here: how a call's name reaches the tree's async generators (a
// typed variable, a named function expression) and how it does not (a package's import).
const tsconfig = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] },
  include: ['src/**/*.ts'],
});

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function tree(files: Record<string, string>): string {
  const { dir, cleanup } = tempDir('trajaudit-dead-catch-');
  cleanups.push(cleanup);
  for (const [file, text] of Object.entries({ 'tsconfig.json': tsconfig, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** `file line:column name()` of each dead-catch finding, and the exit code, in both modes. */
async function findings(dir: string, types: boolean): Promise<{ code: number | null; sites: string[] }> {
  const run = await runCli(['check', dir, '--rule', 'dead-catch', '--format', 'json', ...(types ? ['--types'] : [])]);
  if (!run.stdout.startsWith('{')) throw new Error(`exit ${run.code}: ${run.stderr}`);
  const json = JSON.parse(run.stdout) as { findings: Array<{ file: string; line: number; column: number; anchor: string }> };
  return { code: run.code, sites: json.findings.map((f) => `${f.file} ${f.line}:${f.column} ${f.anchor}`) };
}

describe('dead-catch: the names a generator is called by', () => {
  it('a typed variable or field and a named function expression are indexed under the name callers use', async () => {
    const dir = tree({
      'src/pages.ts': [
        'type PageFn = (n: number) => AsyncGenerator<number>;',
        "export const pages: PageFn = async function* (n) { if (n < 0) throw new Error('negative'); yield n; };",
        "export const rows = async function* named(n: number) { if (n < 0) throw new Error('negative'); yield n; };",
        "export const plain = async function* (n: number) { if (n < 0) throw new Error('negative'); yield n; };",
        'export class Pager {',
        '  private readonly field: PageFn = async function* (n) { yield n; };',
        '  other: number = 3;',
        '  typed?: (n: number) => AsyncGenerator<number> = async function* (n) { yield n; };',
        '  run() { try { return this.field(1); } catch { return undefined; } }',
        '  run2() { try { return this.typed!(1); } catch { return undefined; } }',
        '}',
        '',
      ].join('\n'),
      'src/use.ts': [
        "import { pages, rows, plain } from './pages.js';",
        'export function u1() { try { return pages(-1); } catch { return undefined; } }',
        'export function u2() { try { return rows(-1); } catch { return undefined; } }',
        'export function u3() { try { return plain(-1); } catch { return undefined; } }',
        '',
      ].join('\n'),
    });
    const expected = [
      'src/pages.ts 9:29 this.field',
      'src/pages.ts 10:30 this.typed',
      'src/use.ts 2:37 pages',
      'src/use.ts 3:37 rows',
      'src/use.ts 4:37 plain',
    ];
    expect(await findings(dir, false)).toEqual({ code: 1, sites: expected });
    expect(await findings(dir, true)).toEqual({ code: 1, sites: expected });
  });

  it("a package's function imported under its own name is not the tree's generator of that name; an alias or workspace package is", async () => {
    const generators = [
      '// The tree\'s own streaming parser and SSE stream: async generators.',
      'export async function* parse(lines: AsyncIterable<string>): AsyncGenerator<unknown> { for await (const l of lines) yield JSON.parse(l); }',
      'export async function* stream(q: string) { yield q; }',
      '',
    ].join('\n');
    const dir = tree({
      'tsconfig.json': JSON.stringify({ ...JSON.parse(tsconfig), compilerOptions: { ...JSON.parse(tsconfig).compilerOptions, paths: { '#gen': ['./src/gen.ts'], 'app/*': ['./src/*'] } } }),
      'src/gen.ts': generators,
      'packages/llm/package.json': JSON.stringify({ name: '@acme/llm', type: 'module' }),
      'packages/llm/src/index.ts': generators,
      'src/config.ts': [
        "import { z, parse } from 'zod';",
        "import { stream } from 'hono/streaming';",
        "import * as zod from 'zod';",
        "import zodDefault = require('zod');",
        'const schema = z.object({ a: z.number() });',
        'export function load(raw: unknown) {',
        '  try { return parse(schema, raw); } catch (e) { throw new Error(`bad config: ${String(e)}`); }',
        '}',
        'export function sse(c: any) {',
        '  try { return stream(c, async () => {}); } catch { return undefined; }',
        '}',
        'export function viaNamespace(raw: unknown) {',
        '  try { return zod.parse(schema, raw); } catch { return undefined; }',
        '}',
        'export function viaRequire(raw: unknown) {',
        '  try { return zodDefault.parse(schema, raw); } catch { return undefined; }',
        '}',
        '',
      ].join('\n'),
      'src/own.ts': [
        "import { stream } from 'app/gen';",
        "import { parse } from '@acme/llm';",
        "import * as gen from 'app/gen';",
        'export function a(q: string) { try { return stream(q); } catch { return undefined; } }',
        'export function b(l: AsyncIterable<string>) { try { return parse(l); } catch { return undefined; } }',
        'export function c(q: string) { try { return gen.stream(q); } catch { return undefined; } }',
        '',
      ].join('\n'),
    });
    // zodDefault.parse is a member call: the tree declares no member parse.
    const expected = ['src/own.ts 4:45 stream', 'src/own.ts 5:60 parse', 'src/own.ts 6:49 gen.stream'];
    expect(await findings(dir, false)).toEqual({ code: 1, sites: expected });
    expect((await findings(dir, true)).sites).toEqual(expected);
  });

  it('--types: an implementation in a file outside the partial program keeps an interface method from counting as a generator', async () => {
    const files = {
      'src/source.ts': 'export interface Source { turns(q: string): AsyncGenerator<string>; }\n',
      'src/live.ts': "import type { Source } from './source.js';\nexport class Live implements Source { async *turns(q: string) { yield q; } }\n",
      'src/use.ts': [
        "import type { Source } from './source.js';",
        'export function start(s: Source, q: string) {',
        '  try {',
        '    return s.turns(q);',
        '  } catch (e) {',
        "    console.error('bad prompt', e);",
        '    return undefined;',
        '  }',
        '}',
        '',
      ].join('\n'),
    };
    // Only generators implement Source: the catch is dead, in both modes.
    const onlyGenerators = tree(files);
    expect(await findings(onlyGenerators, false)).toEqual({ code: 1, sites: ['src/use.ts 4:14 s.turns'] });
    expect(await findings(onlyGenerators, true)).toEqual({ code: 1, sites: ['src/use.ts 4:14 s.turns'] });
    // Eager validates before any generator exists, in a file no prefiltered root imports.
    const withEager = tree({
      ...files,
      'src/eager.ts': [
        "import type { Source } from './source.js';",
        "import { Live } from './live.js';",
        'export class Eager implements Source {',
        '  turns(q: string): AsyncGenerator<string> {',
        "    if (!q) throw new Error('empty prompt');",
        '    return new Live().turns(q);',
        '  }',
        '}',
        '',
      ].join('\n'),
    });
    expect(await findings(withEager, false)).toEqual({ code: 0, sites: [] });
    expect(await findings(withEager, true)).toEqual({ code: 0, sites: [] });
  });

  it('a generator stored in a field and reached through a this. method, or iterated through a second name, inside the try is consumed', async () => {
    const dir = tree({
      'src/gen.ts': "export async function* turns(q: string): AsyncGenerator<string> { if (!q) throw new Error('empty'); yield q; }\n",
      'src/agent.ts': [
        "import { turns } from './gen.js';",
        'declare function drain(state: { current?: AsyncGenerator<string> }): Promise<void>;',
        'export class Agent {',
        '  private current?: AsyncGenerator<string>;',
        '  private log = { info(m: string) { return m; } };',
        '  async *turns(q: string) { yield q; }',
        '  async run(q: string) {',
        '    try {',
        '      this.current = turns(q);',
        '      await this.pump(); // iterates this.current inside the try',
        "    } catch (e) { console.error('turn failed', e); }",
        '  }',
        '  async handedOn(q: string, state: { current?: AsyncGenerator<string> }) {',
        '    try { state.current = turns(q); await drain(state); } catch { return; }',
        '  }',
        '  async viaAlias(q: string) {',
        '    try {',
        '      const stream = turns(q);',
        '      const source = stream;',
        '      let again;',
        '      again = source;',
        '      for await (const c of again) console.log(c);',
        '    } catch (e) { console.error(e); }',
        '  }',
        '  async onlyOwnCall(q: string) {',
        '    try { this.current = this.turns(q); } catch { return; }', // reported: its own call hands it to nobody
        '  }',
        '  async otherMember(q: string) {',
        "    try { this.current = turns(q); this.log.info('started'); } catch { return; }", // reported: this.log is not its holder
        '  }',
        '  async aliasNotIterated(q: string) {',
        '    try { const stream = turns(q); const source = stream; void source; } catch { return; }', // reported: not iterated under either name
        '  }',
        '  private async pump() { for await (const c of this.current!) console.log(c); }',
        '}',
        '',
      ].join('\n'),
    });
    const expected = ['src/agent.ts 26:31 this.turns', 'src/agent.ts 29:26 turns', 'src/agent.ts 32:26 turns'];
    expect(await findings(dir, false)).toEqual({ code: 1, sites: expected });
    expect(await findings(dir, true)).toEqual({ code: 1, sites: expected });
  });
});
