import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';
import { REPO } from './run-cli.js';

/** Runs SQL on a database file directly (not through trajaudit), as an older version or another tool would leave it. */
export function editDatabase(file: string, statements: string[]): void {
  const run = spawnSync(process.execPath, ['-e', `
    const { DuckDBInstance } = require(${JSON.stringify(path.join(REPO, 'node_modules/@duckdb/node-api'))});
    DuckDBInstance.create(${JSON.stringify(file)}).then(async (i) => { const c = await i.connect();
      for (const sql of ${JSON.stringify(statements)}) await c.run(sql); c.closeSync(); i.closeSync(); });
  `], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
}
