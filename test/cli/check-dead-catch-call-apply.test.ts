import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';

// `gen.call(thisArg, …)` and `gen.apply(thisArg, [...])` call the generator function itself: they
// run none of its body either, so a try around them that returns the generator can never catch.
const work = tempDir();
afterAll(work.cleanup);
fs.mkdirSync(path.join(work.dir, 'src'));
fs.writeFileSync(path.join(work.dir, 'src/gen.ts'), [
  'export async function* streamTurns(p: string): AsyncGenerator<string> { if (!p) throw new Error("empty"); yield p; }',
  'export class Turns { static async *stream(p: string): AsyncGenerator<string> { if (!p) throw new Error("empty"); yield p; } }',
  '',
].join('\n'));
fs.writeFileSync(path.join(work.dir, 'src/use.ts'), [
  'import { streamTurns, Turns } from "./gen.js";',
  'export function a(p: string) { try { return streamTurns.call(undefined, p); } catch { return undefined; } }',
  'export function b(p: string) { try { return Turns.stream.apply(Turns, [p]); } catch { return undefined; } }',
  'export function c(p: string) { try { return parseInt.call(undefined, p); } catch { return undefined; } }',
  'export async function d(p: string) { try { for await (const t of streamTurns.call(undefined, p)) return t; } catch { return undefined; } }',
  '',
].join('\n'));
fs.writeFileSync(path.join(work.dir, 'tsconfig.json'), '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "noEmit": true, "types": [] } }\n');

const returned = (line: number, column: string, name: string) =>
  `  ${line}:${column}error   new            dead-catch            ${name}() is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line ${line} never sees its errors`;

describe('dead-catch: a generator called through .call or .apply', () => {
  for (const [label, args, suffix] of [['syntactic', [], ''], ['--types', ['--types'], ', type-aware']] as const) {
    it(`${label}: reported like a plain call; another function's .call, and one iterated inside the try, are not`, () => {
      const run = runCli(['check', work.dir, ...args]);
      expect([run.code, run.stderr, run.stdout]).toEqual([1, '', [
        'src/use.ts',
        returned(2, '45     ', 'streamTurns'),
        returned(3, '51     ', 'stream'),
        '',
        `2 new, 0 baselined, 0 allowed, 0 info, 0 stale (2 files scanned, 2 parsed${suffix})`,
        '',
      ].join('\n')]);
    });
  }
});
