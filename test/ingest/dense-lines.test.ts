// DuckDB's JSON functions take up to eight times the bytes of a chunk of 2,048 rows from the
// buffer pool (192 MB for a --db file). A file with several lines of several MiB, or with 2,048
// lines of 8 KiB in a row, used to make `load --db` run out of memory (exit 2): the direct reader
// now leaves such a file to the staged one, which parses each line over 1 MiB in a statement of its own.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

const MiB = 1024 * 1024;
const BIG = 'trajectories/sessions/20260815-091500-0000de01';
const DENSE = 'trajectories/sessions/20260815-101500-0000de02';
/** A line of exactly `bytes` bytes. */
const line = (event: string, index: number, bytes: number) => {
  const prefix = `{"event":"${event}","data":{"index":${index},"s":"`;
  return `${prefix}${'x'.repeat(bytes - prefix.length - 3)}"}}`;
};

let work: ReturnType<typeof tempDir>;
let home: string;

beforeAll(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  for (const dir of [BIG, DENSE]) fs.mkdirSync(path.join(home, dir), { recursive: true });
  fs.writeFileSync(path.join(home, BIG, 'events.jsonl'), `${[0, 1, 2].map((i) => line('Big', i, 7 * MiB)).join('\n')}\n${line('Small', 3, 100)}\n`);
  fs.writeFileSync(path.join(home, DENSE, 'events.jsonl'), `${Array.from({ length: 4000 }, (_, i) => line('Dense', i, 8 * 1024)).join('\n')}\n`);
});
afterAll(() => work?.cleanup());

describe.each([
  ['the direct reader', {}],
  ['the staged reader', { TRAJAUDIT_READER: 'staged' }],
])('load --db, %s', (_, env) => {
  it('loads every line of a file of 7 MiB lines and of a file of 8 KiB lines', () => {
    const db = path.join(work.dir, `${Object.keys(env).length}.duckdb`);
    const load = runJson<Record<string, number>[]>(['load', home, '--db', db], { env });
    expect(load.run.stderr).toBe('');
    expect(load.run.code).toBe(0);
    expect(load.value[0]).toMatchObject({ loaded: 2, malformed_lines: 0 });
    const sql = `SELECT session_id[-4:] AS session, count(*) AS events, sum(strlen(data::VARCHAR)) AS chars, min(idx) AS first, max(idx) AS last FROM events GROUP BY 1 ORDER BY 1`;
    expect(runJson(['sql', sql, '--db', db]).value).toEqual([
      { session: 'de01', events: 4, chars: 3 * (7 * MiB - 23) + (100 - 25), first: 0, last: 3 }, // the line less its envelope
      { session: 'de02', events: 4000, chars: 4000 * (8192 - 25), first: 0, last: 3999 },
    ]);
  });
});
