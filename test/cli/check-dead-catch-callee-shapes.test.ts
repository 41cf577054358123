import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';

// Callee and consumption shapes of dead-catch beyond a plain call (realcheck R9), each on a tree
// of its own: src/gen.ts declares the generators, src/use.ts calls them inside a try.
const work = tempDir();
afterAll(work.cleanup);

function tree(name: string, extraGen: string[], use: string[], more: Record<string, string[]> = {}): string {
  const root = path.join(work.dir, name);
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src/gen.ts'), [
    'export async function* streamTurns(p: string): AsyncGenerator<string> { if (!p) throw new Error("empty"); yield p; }',
    'export class Turns { static async *stream(p: string): AsyncGenerator<string> { if (!p) throw new Error("empty"); yield p; } }',
    ...extraGen,
    '',
  ].join('\n'));
  for (const [file, lines] of Object.entries({ 'src/use.ts': use, ...more })) fs.writeFileSync(path.join(root, file), [...lines, ''].join('\n'));
  fs.writeFileSync(path.join(root, 'tsconfig.json'), '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "noEmit": true, "types": [] } }\n');
  return root;
}

const finding = (line: number, column: number, text: string) => `  ${`${line}:${column}`.padEnd(9)}error   new            dead-catch            ${text}`;
const returned = (line: number, column: number, name: string) =>
  finding(line, column, `${name}() is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line ${line} never sees its errors`);
const notIterated = (line: number, column: number, name: string) =>
  finding(line, column, `${name}() is an async generator not iterated inside the try: its body runs only when iterated, so the catch at line ${line} never sees its errors`);
const modes = [['syntactic', [], ''], ['--types', ['--types'], ', type-aware']] as const;

// `gen.call(thisArg, …)` and `gen.apply(thisArg, [...])` call the generator function itself: they
// run none of its body either, so a try around them that returns the generator can never catch.
const callApply = tree('call-apply', [], [
  'import { streamTurns, Turns } from "./gen.js";',
  'export function a(p: string) { try { return streamTurns.call(undefined, p); } catch { return undefined; } }',
  'export function b(p: string) { try { return Turns.stream.apply(Turns, [p]); } catch { return undefined; } }',
  'export function c(p: string) { try { return parseInt.call(undefined, p); } catch { return undefined; } }',
  'export async function d(p: string) { try { for await (const t of streamTurns.call(undefined, p)) return t; } catch { return undefined; } }',
]);

// A variable that is only another name for an async generator (`export const viaAlias =
// Turns.stream`, an alias of it, of a plain function), and a generator whose next() is called but
// its promise thrown away (`void s.next()`): the body's errors reject that promise, so the catch
// still never sees them. An awaited next(), an alias of something else (Math.max), and a `let`
// (which may take another value later) are not reported.
const aliasNext = tree('alias-next', [
  'export const viaAlias = Turns.stream;',
  'export const twice = viaAlias;',
  'export const plain: (p: string) => AsyncGenerator<string> = streamTurns;',
  'export const notGen = Math.max;',
  'export let swapped = streamTurns;',
  'export function swap(next: (p: string) => Promise<string>) { (swapped as unknown) = next; }',
], [
  'import { streamTurns, viaAlias, twice, plain, notGen, swapped } from "./gen.js";',
  'export function a(p: string) { try { return viaAlias(p); } catch { return undefined; } }',
  'export function b(p: string) { try { return twice(p); } catch { return undefined; } }',
  'export function c(p: string) { try { return plain(p); } catch { return undefined; } }',
  'export function d(p: number) { try { return notGen(p); } catch { return undefined; } }',
  'export function e(p: string) { try { const s = streamTurns(p); void s.next(); return s; } catch { return undefined; } }',
  'export function f(p: string) { try { const s = streamTurns(p); s.next(); return 1; } catch { return undefined; } }',
  'export async function g(p: string) { try { const s = streamTurns(p); await s.next(); return s; } catch { return undefined; } }',
  'export async function h(p: string) { try { return await streamTurns(p).next(); } catch { return undefined; } }',
  'export function i(p: string) { try { return swapped(p); } catch { return undefined; } }',
]);

// More spellings of an alias, each a file of its own: through a namespace import, with `!` or a
// comment after it, the same alias in two files; a comma that throws next()'s promise away. An
// alias of a package's function (zod's parse, though the tree declares an async *parse) is not
// the tree's generator.
const aliasForms = tree('alias-forms', ['export async function* parse(p: string): AsyncGenerator<string> { if (!p) throw new Error("empty"); yield p; }'], [
  'import * as G from "./gen.js";',
  'const fetchAll = G.streamTurns;',
  'const bang = G.Turns.stream!;',
  'const commented = G.streamTurns // another name',
  'export function a(p: string) { try { return fetchAll(p); } catch { return undefined; } }',
  'export function b(p: string) { try { return bang(p); } catch { return undefined; } }',
  'export function c(p: string) { try { return commented(p); } catch { return undefined; } }',
  'export function d(p: string) { try { const it = G.streamTurns(p); (void 0, it.next()); return 1; } catch { return undefined; } }',
], {
  'src/one.ts': ['import { streamTurns } from "./gen.js";', 'const pages = streamTurns;', 'export function a(p: string) { try { return pages(p); } catch { return undefined; } }'],
  'src/two.ts': ['import { streamTurns } from "./gen.js";', 'const pages = streamTurns;', 'export function a(p: string) { try { return pages(p); } catch { return undefined; } }'],
  'src/zod.ts': ['import { parse } from "zod";', 'const pz = parse;', 'export function a(p: string) { try { return pz(p); } catch { return undefined; } }'],
});

// The audit's last shapes: an alias of an import renamed on the way in, an alias whose annotation
// holds `=` in a string type, a next() whose promise goes into a `.then(…)`/`.catch(…)` chain nobody
// keeps, and `s.next.call(s)` thrown away. The same shapes awaited or returned are consumption.
const aliasChains = tree('alias-chains', [
  'export const viaAlias = Turns.stream;',
  'export const typed: ((p: string) => AsyncGenerator<string>) & { tag?: "a=b" } = streamTurns;',
], [
  'import { viaAlias as va, typed, streamTurns } from "./gen.js";',
  'const local = va;',
  'export function a(p: string) { try { return local(p); } catch { return undefined; } }',
  'export function b(p: string) { try { return typed(p); } catch { return undefined; } }',
  'export function c(p: string) { try { const s = streamTurns(p); s.next().then(() => 1); return 1; } catch { return undefined; } }',
  'export async function d(p: string) { try { const s = streamTurns(p); await s.next().then(() => 1); return 1; } catch { return undefined; } }',
  'export function e(p: string) { try { const s = streamTurns(p); void s.next.call(s); return 1; } catch { return undefined; } }',
  'export async function f(p: string) { try { const s = streamTurns(p); await s.next.call(s); return 1; } catch { return undefined; } }',
  'export function g(p: string) { try { const s = streamTurns(p); s.next().catch(() => 1).finally(() => 2); return 1; } catch { return undefined; } }',
  'export function h(p: string) { try { const s = streamTurns(p); return s.next().then(() => 1); } catch { return undefined; } }',
  'export function i(p: string) { try { const s = streamTurns(p); void s.next.apply(s, []); return 1; } catch { return undefined; } }',
]);

const scenarios = [
  {
    title: 'a generator called through .call or .apply',
    verdict: "reported like a plain call; another function's .call, and one iterated inside the try, are not",
    root: callApply,
    findings: [returned(2, 45, 'streamTurns'), returned(3, 51, 'stream')],
  },
  {
    title: 'an alias of an async generator, and a next() whose promise is thrown away',
    verdict: 'both reported; an awaited next(), an alias of another function and a let are not',
    root: aliasNext,
    findings: [returned(2, 45, 'viaAlias'), returned(3, 45, 'twice'), returned(4, 45, 'plain'), notIterated(6, 48, 'streamTurns'), notIterated(7, 48, 'streamTurns')],
  },
  {
    title: 'an alias through a namespace, with ! or a comment, in two files; a next() left of a comma',
    verdict: "all reported; an alias of a package's function is not",
    root: aliasForms,
    findings: [
      'src/one.ts', returned(3, 45, 'pages'), '', 'src/two.ts', returned(3, 45, 'pages'), '', 'src/use.ts',
      returned(5, 45, 'fetchAll'), returned(6, 45, 'bang'), returned(7, 45, 'commented'), notIterated(8, 51, 'streamTurns'),
    ],
  },
  {
    title: 'an alias of a renamed import or with = in its annotation; next() into a .then chain, or through .call',
    verdict: 'reported when the promise is thrown away; not when it is awaited or returned',
    root: aliasChains,
    findings: [returned(3, 45, 'local'), returned(4, 45, 'typed'), notIterated(5, 48, 'streamTurns'), notIterated(7, 48, 'streamTurns'), notIterated(9, 48, 'streamTurns'), notIterated(11, 48, 'streamTurns')],
  },
];

for (const { title, verdict, root, findings } of scenarios) {
  describe(`dead-catch: ${title}`, () => {
    for (const [label, args, suffix] of modes) {
      it(`${label}: ${verdict}`, async () => {
        const run = await runCli(['check', root, ...args]);
        const files = fs.readdirSync(path.join(root, 'src')).length;
        const count = findings.filter((line) => line.startsWith('  ')).length;
        expect([run.code, run.stderr, run.stdout]).toEqual([1, '', [
          ...(findings[0].startsWith('src/') ? [] : ['src/use.ts']),
          ...findings,
          '',
          `${count} new, 0 baselined, 0 allowed, 0 info, 0 stale (${files} file${files === 1 ? '' : 's'} scanned, ${files} parsed${suffix})`,
          '',
        ].join('\n')]);
      });
    }
  });
}
