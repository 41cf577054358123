// DuckDB's JSON functions take up to eight times the bytes of a chunk of 2,048 rows from the
// buffer pool (192 MB for a --db file). A file with several lines of several MiB, or with 2,048
// lines of 8 KiB in a row, used to make `load --db` run out of memory (exit 2): the direct reader
// now leaves such a file to the staged one, which parses each line over 1 MiB in a statement of its own.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

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
  it('loads every line of a file of 7 MiB lines and of a file of 8 KiB lines', async () => {
    const db = path.join(work.dir, `${Object.keys(env).length}.duckdb`);
    const load = await runJson<Record<string, number>[]>(['load', home, '--db', db], { env });
    expect(load.run.stderr).toBe('');
    expect(load.run.code).toBe(0);
    expect(load.value[0]).toMatchObject({ loaded: 2, malformed_lines: 0 });
    const sql = `SELECT session_id[-4:] AS session, count(*) AS events, sum(strlen(data::VARCHAR)) AS chars, min(idx) AS first, max(idx) AS last FROM events GROUP BY 1 ORDER BY 1`;
    expect((await runJson(['sql', sql, '--db', db])).value).toEqual([
      { session: 'de01', events: 4, chars: 3 * (7 * MiB - 23) + (100 - 25), first: 0, last: 3 }, // the line less its envelope
      { session: 'de02', events: 4000, chars: 4000 * (8192 - 25), first: 0, last: 3999 },
    ]);
  });
});

// Still too dense for the pool (docs/inputs.md#the-longest-line-8-mib: some 16 MiB of lines under 1 MiB each within 2,048 lines):
// the load stops in one line that names the file it was reading, the files committed before it
// are kept, and every reader is told the load did not finish.
describe('load --db of a file still too dense for the buffer pool', () => {
  it('stops with exit 2 naming the file; readers are told the load did not finish', async () => {
    const root = path.join(work.dir, 'too-dense');
    const first = 'trajectories/sessions/20260815-081500-0000de00';
    const dense = 'trajectories/sessions/20260815-111500-0000de03';
    for (const dir of [first, dense]) fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, first, 'events.jsonl'), `${line('Small', 0, 100)}\n`);
    fs.writeFileSync(path.join(root, dense, 'events.jsonl'), `${Array.from({ length: 40 }, (_, i) => line('Dense', i, MiB - 200)).join('\n')}\n`);
    const db = path.join(work.dir, 'too-dense.duckdb');
    // One file per commit, so that the first file is committed before the dense one is read.
    const load = await runCli(['load', root, '--db', db, '--quiet'], { env: { TRAJAUDIT_COMMIT_BYTES: '1' } });
    expect(load.code).toBe(2);
    expect(load.stderr).toMatch(new RegExp(`^trajaudit: DuckDB ran out of memory while reading ${dense}/events\\.jsonl \\(Out of Memory Error: [^\\n]*\\); the files committed before it are kept; raise TRAJAUDIT_MEMORY_LIMIT \\(a size with its unit, e\\.g\\. TRAJAUDIT_MEMORY_LIMIT=1GB; default 192MB to load into a --db file, 160MB to read one\\) or free memory\\n$`));
    const query = await runCli(['sql', 'SELECT path FROM input_files', '--db', db, '--format', 'csv']);
    expect(query.stdout).toBe(`path\r\n${first}/events.jsonl\r\n`);
    expect(query.stderr).toMatch(/^trajaudit: the last load into \S+ \(started [^)]+\) did not finish/);
  });
});
