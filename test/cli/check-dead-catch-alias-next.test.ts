import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';

// Two shapes the rule missed (realcheck R9): a variable that is only another name for an async
// generator (`export const viaAlias = Turns.stream`, an alias of it, of a plain function), and a
// generator whose next() is called but its promise thrown away (`void s.next()`): the body's
// errors reject that promise, so the catch still never sees them. An awaited next(), and an alias
// of something else (Math.max), are not reported.
const work = tempDir();
afterAll(work.cleanup);
fs.mkdirSync(path.join(work.dir, 'src'));
fs.writeFileSync(path.join(work.dir, 'src/gen.ts'), [
  'export async function* streamTurns(p: string): AsyncGenerator<string> { if (!p) throw new Error("empty"); yield p; }',
  'export class Turns { static async *stream(p: string): AsyncGenerator<string> { if (!p) throw new Error("empty"); yield p; } }',
  'export const viaAlias = Turns.stream;',
  'export const twice = viaAlias;',
  'export const plain: (p: string) => AsyncGenerator<string> = streamTurns;',
  'export const notGen = Math.max;',
  '',
].join('\n'));
fs.writeFileSync(path.join(work.dir, 'src/use.ts'), [
  'import { streamTurns, viaAlias, twice, plain, notGen } from "./gen.js";',
  'export function a(p: string) { try { return viaAlias(p); } catch { return undefined; } }',
  'export function b(p: string) { try { return twice(p); } catch { return undefined; } }',
  'export function c(p: string) { try { return plain(p); } catch { return undefined; } }',
  'export function d(p: number) { try { return notGen(p); } catch { return undefined; } }',
  'export function e(p: string) { try { const s = streamTurns(p); void s.next(); return s; } catch { return undefined; } }',
  'export function f(p: string) { try { const s = streamTurns(p); s.next(); return 1; } catch { return undefined; } }',
  'export async function g(p: string) { try { const s = streamTurns(p); await s.next(); return s; } catch { return undefined; } }',
  'export async function h(p: string) { try { return await streamTurns(p).next(); } catch { return undefined; } }',
  '',
].join('\n'));
fs.writeFileSync(path.join(work.dir, 'tsconfig.json'), '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "noEmit": true, "types": [] } }\n');

const returned = (line: number, name: string) =>
  `  ${line}:45     error   new            dead-catch            ${name}() is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line ${line} never sees its errors`;
const notIterated = (line: number) =>
  `  ${line}:48     error   new            dead-catch            streamTurns() is an async generator not iterated inside the try: its body runs only when iterated, so the catch at line ${line} never sees its errors`;

describe('dead-catch: an alias of an async generator, and a next() whose promise is thrown away', () => {
  for (const [label, args, suffix] of [['syntactic', [], ''], ['--types', ['--types'], ', type-aware']] as const) {
    it(`${label}: both reported; an awaited next() and an alias of another function are not`, () => {
      const run = runCli(['check', work.dir, ...args]);
      expect([run.code, run.stderr, run.stdout]).toEqual([1, '', [
        'src/use.ts',
        returned(2, 'viaAlias'),
        returned(3, 'twice'),
        returned(4, 'plain'),
        notIterated(6),
        notIterated(7),
        '',
        `5 new, 0 baselined, 0 allowed, 0 info, 0 stale (2 files scanned, 2 parsed${suffix})`,
        '',
      ].join('\n')]);
    });
  }
});
