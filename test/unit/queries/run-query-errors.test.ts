// What a canned query's failure becomes: the machine's state (out of memory, a full disk, as db/
// words it) passes through with its own exit code 2; DuckDB refusing a value is the user's to fix
// (exit 2); anything else is a bug in the query (exit 3).
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.js';
import { InternalError, OutOfMemoryError, UsageError } from '../../../src/errors.js';
import { loadQueries } from '../../../src/queries/load-queries.js';
import { runQuery } from '../../../src/queries/run-query.js';

const failing = (error: unknown) => ({ all: async () => Promise.reject(error) }) as unknown as Database;
const query = loadQueries()[0];

describe('runQuery errors', () => {
  it('passes an out-of-memory error through as it is (exit 2), not as an internal error', async () => {
    const oom = new OutOfMemoryError('failed to allocate', 'raise TRAJAUDIT_MEMORY_LIMIT');
    await expect(runQuery(failing(oom), query, {})).rejects.toBe(oom);
  });

  it('says a value DuckDB refuses is the parameters\' fault, and anything else the query\'s', async () => {
    await expect(runQuery(failing(new Error('Conversion Error: Could not convert string')), query, {})).rejects.toBeInstanceOf(UsageError);
    await expect(runQuery(failing(new Error('Binder Error: Referenced column "x" not found')), query, {})).rejects.toBeInstanceOf(InternalError);
  });
});
