import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';
import { checkJson } from '../checks/run-cli.js';

// Editors, GitHub annotations and SARIF utf16CodeUnits do not count a UTF-8 byte order mark as a column.
const t = tempDir('trajaudit-bom-');
afterAll(t.cleanup);
const line = 'declare const p: any; export const f = () => p.sendMessageStream(1);\n';
mkdirSync(path.join(t.dir, 'src'));
writeFileSync(path.join(t.dir, 'src/plain.ts'), line);
writeFileSync(path.join(t.dir, 'src/bom.ts'), `\uFEFF${line}`);
// UTF-16, which tsc reads by its byte order mark: read as UTF-8 it held no name a rule looks for, and passed unread.
writeFileSync(path.join(t.dir, 'src/utf16le.ts'), Buffer.from(`\uFEFF${line}`, 'utf16le'));
writeFileSync(path.join(t.dir, 'src/utf16be.ts'), Buffer.from(`\uFEFF${line}`, 'utf16le').swap16());

describe('check: a file starting with a byte order mark (UTF-8, UTF-16 LE or BE)', () => {
  it.each([[[]], [['--types']]])('reports line 1 at the same column as without it %j', async (extra: string[]) => {
    const { json } = await checkJson([t.dir, ...extra]);
    expect(json.findings.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['src/bom.ts:1:48', 'src/plain.ts:1:48', 'src/utf16be.ts:1:48', 'src/utf16le.ts:1:48']);
  });
});
