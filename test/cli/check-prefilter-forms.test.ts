import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../checks/run-cli.js';
import { tempDir } from '../helpers/run-cli.js';

// fixtures/check-prefilter-forms: one form per file, so that the text prefilter alone decides
// whether the file is parsed. Every form the rules match must get through it; a type-only
// mention of the class (type-only.ts, tracker.ts) need not. The tree's only async generators are
// anonymous (anonymous-generator.ts) or declared with comments between their tokens.
const fixture = 'fixtures/check-prefilter-forms';
const moduleLevel = 'error   new            stateful-construction FileReadTracker built at module top level: one instance shared by the whole process; build it per agent and pass it in';
const deadCatch = (shown: string, line: number) =>
  `error   new            dead-catch            ${shown} is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line ${line} never sees its errors`;
const directCall = 'error   new            direct-provider-call  direct call to sendMessageStream() bypasses the resilience funnel (allowed only in src/llm/**, packages/*/src/llm/**)';

describe('check: the text prefilter lets through every form the rules match', () => {
  it('new with a comment (block or line), parentheses or a namespace element access; a string-named import; a name spelled with escapes; an anonymous or commented async generator', async () => {
    const run = await runCli(['check', fixture]);
    expect([run.code, run.stderr]).toEqual([1, '']);
    expect(run.stdout).toBe(
      [
        'src/anonymous-generator.ts',
        `  4:12     ${deadCatch('the async generator expression', 7)}`,
        '',
        'src/commented-generator.ts',
        `  13:19    ${deadCatch('pages()', 14)}`,
        `  22:12    ${deadCatch('chunks()', 23)}`,
        '',
        'src/commented.ts',
        `  3:56     ${moduleLevel}`,
        '',
        'src/line-comment.ts',
        `  4:3      ${moduleLevel}`,
        '',
        'src/namespace-import.ts',
        `  3:35     ${moduleLevel}`,
        '',
        'src/parenthesized.ts',
        `  3:35     ${moduleLevel}`,
        '',
        'src/string-escape.ts',
        `  4:17     ${directCall}`,
        '',
        'src/string-import.ts',
        `  4:28     ${moduleLevel}`,
        '',
        'src/unicode-escape.ts',
        `  4:17     ${directCall}`,
        '',
        '10 new, 0 baselined, 0 allowed, 0 info, 0 stale (12 files scanned, 10 parsed)',
        '',
      ].join('\n'),
    );
  });
});

describe('check: the text prefilter keeps out files that name nothing configured', () => {
  it('a comment line ending in a full stop followed by another comment line is no construction site', async () => {
    const { dir, cleanup } = tempDir('trajaudit-prefilter-');
    try {
      mkdirSync(path.join(dir, 'src'));
      for (let i = 0; i < 3; i++) {
        const text = `// Reads the config once.\n// The caller owns the result.\nexport function f${i}(x: number): number {\n  return x + ${i};\n}\n`;
        writeFileSync(path.join(dir, 'src', `f${i}.ts`), text);
      }
      const run = await runCli(['check', dir, '--rule', 'stateful-construction']);
      expect([run.code, run.stdout]).toEqual([0, '0 new, 0 baselined, 0 allowed, 0 info, 0 stale (3 files scanned, 0 parsed)\n']);
    } finally {
      cleanup();
    }
  });
});
