// A --db holding many files loads again: what it remembers of them is read a few thousand files at
// a time. Read as one text, 100,000 files outgrew DuckDB's default memory on the second load; here
// 8,000 files under a memory limit of 24 MB show the same.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

const { dir, cleanup } = tempDir('trajaudit-many-files-');
afterAll(cleanup);

describe('a --db of 8,000 task outputs', () => {
  it('loads again, unchanged, within a 24 MB memory limit', { timeout: 18_000 }, async () => {
    const tasks = path.join(dir, 'tasks');
    fs.mkdirSync(tasks);
    for (let i = 0; i < 8_000; i += 1) fs.writeFileSync(path.join(tasks, `t${i}.output`), 'ok\n');
    const db = path.join(dir, 'many.duckdb');
    const first = await runJson<Record<string, number>[]>(['load', tasks, '--db', db, '--quiet']);
    expect(first.value[0]).toMatchObject({ files: 8_000, loaded: 8_000, files_in_db: 8_000 });
    const again = await runJson<Record<string, number>[]>(['load', tasks, '--db', db, '--quiet'], { env: { TRAJAUDIT_MEMORY_LIMIT: '24MB' } });
    expect(again.run).toMatchObject({ code: 0, stderr: '' });
    expect(again.value[0]).toMatchObject({ files: 8_000, loaded: 0, unchanged: 8_000, files_in_db: 8_000 });
  });
});
