import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';
import { runCli } from '../checks/run-cli.js';

// --types reads the root's tsconfig.json: what `tsc -p` refuses is an input error at file:line:column,
// never a silent run with partial compiler options.
let cleanup = () => {};
afterEach(() => cleanup());

function tree(files: Record<string, string>): string {
  const t = tempDir('trajaudit-tsconfig-');
  cleanup = t.cleanup;
  mkdirSync(path.join(t.dir, 'src'));
  writeFileSync(path.join(t.dir, 'src/a.ts'), 'declare const p: any;\nexport const f = () => p.sendMessageStream(1);\n');
  for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(t.dir, rel), text);
  return t.dir;
}

const types = (dir: string) => runCli(['check', dir, '--types']);
const tail = '; fix the tsconfig for --types (tsc -p reports it too)\n';

describe('check --types: tsconfig errors', () => {
  it('extends a file that does not exist: exit 2, at the extends value', async () => {
    const dir = tree({ 'tsconfig.json': '{\n  "extends": "./missing-base.json"\n}\n' });
    const run = await types(dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `trajaudit: ${dir}/tsconfig.json:2:14: Cannot read file '${dir}/missing-base.json' (TS5083)${tail}`,
    );
  });

  it('an invalid value: line and column, one sentence', async () => {
    const dir = tree({ 'tsconfig.json': '{\n  "compilerOptions": {\n    "strict": tru\n  }\n}\n' });
    const run = await types(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `trajaudit: ${dir}/tsconfig.json:3:15: Property value can only be string literal, numeric literal, 'true', 'false', 'null', object literal or array literal (TS1328)${tail}`,
    );
  });

  it('an unknown option in an extended base config: named at its place in the base', async () => {
    const dir = tree({ 'tsconfig.json': '{ "extends": "./base.json" }\n', 'base.json': '{\n  "compilerOptions": {\n    "strictt": true\n  }\n}\n' });
    const run = await types(dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`trajaudit: ${dir}/base.json:3:5: Unknown compiler option 'strictt'. Did you mean 'strict'? (TS5025)${tail}`);
  });

  it('an include that matches none of the checked files is not an error: the rules choose the files', async () => {
    const dir = tree({ 'tsconfig.json': '{ "include": ["lib/**/*.ts"], "compilerOptions": { "strict": true } }\n' });
    const run = await types(dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('src/a.ts');
  });
});
