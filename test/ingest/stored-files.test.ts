// What a load remembers of each file (input_files) comes back as it was stored: storedFiles reads
// it as JSON texts of a few thousand rows each, for speed, and must give what the row-by-row
// reader gives.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { SCHEMA } from '../../src/formats/registry.js';
import { HASH_BLOCK, hashRange, headHash } from '../../src/ingest/fingerprint.js';
import { storedFiles } from '../../src/ingest/stored-files.js';
import { tempDir } from '../helpers/run-cli.js';

let db: Database;
let work: ReturnType<typeof tempDir>;
beforeEach(async () => {
  db = await openDatabase(SCHEMA);
  work = tempDir();
});
afterEach(() => {
  db.close();
  work.cleanup();
});

const COLUMNS = 'key, path, kind, session_id, file_id, bytes, mtime, head_hash, complete_bytes, complete_lines, tail_hash, stat_stamp';

it('gives every stored file as the row-by-row reader does: odd names, a NULL session and mtime, big sizes', async () => {
  expect(await storedFiles(db)).toEqual(new Map());
  await db.run(`INSERT INTO input_files (${COLUMNS}) VALUES
    ('/h/trajectories/sessions/s1/events.jsonl', 'trajectories/sessions/s1/events.jsonl', 'events', 's1', 1, 5368709120, '2026-08-15T09:15:00.123Z', 'aa', 5368709000, 18584905, 'bb', '2049:131:1786781700123.4567'),
    ('/h/tasks/"q\\u00e9\u00e9\t\n\u0001''.output', 'tasks/"q\\u00e9\u00e9\t\n\u0001''.output', 'task-output', NULL, 9007199254740991, 0, NULL, 'cc', 0, 0, 'dd', NULL),
    ('/h/usage-ledger.jsonl', 'usage-ledger.jsonl', 'usage-ledger', NULL, 3, 17, '1970-01-01T00:00:00Z', 'ee', 17, 1, 'ee', NULL)`);
  const rowByRow = new Map((await db.all(`SELECT ${COLUMNS} FROM input_files`)).rows.map((row) => [row.key, row]));
  const stored = await storedFiles(db);
  expect(stored).toEqual(rowByRow);
  expect(stored.get('/h/trajectories/sessions/s1/events.jsonl')).toMatchObject({ bytes: 5368709120, mtime: '2026-08-15T09:15:00.123Z', complete_lines: 18584905 });
  expect(stored.get('/h/usage-ledger.jsonl')?.mtime).toBe('1970-01-01T00:00:00.000Z');
});

it('gives every file of a table larger than one read, ids with gaps and near 2^53 included', async () => {
  await db.run(`INSERT INTO input_files (${COLUMNS}) SELECT '/h/tasks/' || i || '.output', 'tasks/' || i || '.output', 'task-output', NULL,
    CASE WHEN i = 12344 THEN 9007199254740991 ELSE i * 3 END, i, NULL, 'h', i, 0, 't', NULL FROM range(12345) t(i)`);
  const stored = await storedFiles(db);
  expect(stored.size).toBe(12345);
  expect([...stored.values()].map((file) => file.bytes).sort((a, b) => a - b)).toEqual(Array.from({ length: 12345 }, (_, i) => i));
  expect(stored.get('/h/tasks/12344.output')?.file_id).toBe(9007199254740991);
});

it('takes a stored mtime beyond a JavaScript Date (a database edited by hand) as one no file has, without failing', async () => {
  await db.run(`INSERT INTO input_files (${COLUMNS}) VALUES ('/h/events.jsonl', 'events.jsonl', 'events', 'h', 1, 1, '290000-01-01T00:00:00Z', 'aa', 1, 1, 'aa', NULL)`);
  expect((await storedFiles(db)).get('/h/events.jsonl')?.mtime).toMatch(/^\d+ ms$/);
});

it('hashes a range as its bytes, whatever the file hashed before it (one block is reused)', () => {
  const sha1 = (bytes: Buffer) => crypto.createHash('sha1').update(bytes).digest('hex');
  const big = path.join(work.dir, 'big');
  const small = path.join(work.dir, 'small');
  fs.writeFileSync(big, Buffer.alloc(HASH_BLOCK * 2, 'x'));
  fs.writeFileSync(small, 'abc');
  expect(headHash(big, HASH_BLOCK * 2)).toBe(sha1(Buffer.alloc(HASH_BLOCK, 'x')));
  expect(headHash(small, 3)).toBe(sha1(Buffer.from('abc')));
  expect(hashRange(big, HASH_BLOCK + 10, HASH_BLOCK + 20)).toBe(sha1(Buffer.alloc(10, 'x')));
  // A file shorter than the range asked for (it shrank since its size was taken): the bytes it
  // does not have count as zeros, not as what the last file left in the block.
  expect(headHash(small, 8)).toBe(sha1(Buffer.concat([Buffer.from('abc'), Buffer.alloc(5)])));
});
