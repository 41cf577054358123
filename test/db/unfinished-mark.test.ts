// A load killed after DuckDB made the file and its schema, before the load's first files: every
// reader is told the load did not finish (it answered from no data without a word).
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { SCHEMA } from '../../src/formats/registry.js';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

const work = tempDir();
afterAll(() => work.cleanup());

it('a database file left with its schema and no load says the load did not finish, until a load completes it', async () => {
  const db = path.join(work.dir, 'killed.duckdb');
  (await openDatabase(SCHEMA, db)).close(); // what a load killed right after opening the file leaves
  const query = await runCli(['sql', 'SELECT count(*) AS n FROM input_files', '--db', db, '--format', 'csv']);
  expect(query.code).toBe(0);
  expect(query.stdout).toBe('n\r\n0\r\n');
  expect(query.stderr).toMatch(/^trajaudit: the last load into \S+killed\.duckdb \(started \d{4}-\d\d-\d\dT[\d:.]+Z\) did not finish: /);
  expect((await runCli(['load', path.join(FIXTURES, 'home'), '--db', db, '--quiet'])).code).toBe(0);
  expect((await runCli(['sql', 'SELECT 1 AS one', '--db', db, '--format', 'csv'])).stderr).not.toMatch(/did not finish/);
});
