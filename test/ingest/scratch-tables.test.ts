import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// Without --db, `sql` runs on the connection that loaded the files: the loader's scratch tables
// (`staged`, a copy of the last file read line by line) must be gone by then.
const HOME = path.join(FIXTURES, 'home');
const TEMPORARY = `SELECT table_name FROM duckdb_tables() WHERE temporary ORDER BY 1`;

describe('in-memory commands leave no scratch tables behind', () => {
  for (const reader of ['direct', 'staged']) {
    it(`with the ${reader} reader`, async () => {
      const { value, run } = await runJson<{ table_name: string }[]>(['sql', TEMPORARY, HOME], { env: { TRAJAUDIT_READER: reader } });
      expect(run.code).toBe(0);
      expect(value).toEqual([]);
      const tables = (await runJson<{ name: string }[]>(['sql', 'SHOW TABLES', HOME], { env: { TRAJAUDIT_READER: reader } })).value.map((r) => r.name);
      expect(tables).not.toContain('staged');
      expect(tables).toContain('events');
    });
  }
});
