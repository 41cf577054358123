// Row groups of a --db: DuckDB's 122,880 rows for narrow rows (sid-code's events), 16,384 once the
// database holds Claude Code's wide rows, for good (a writer under another size would merge or
// leave them; attach-for-writing.ts). Each table here has more rows than the small size.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

const LINES = 20_000;
const work = tempDir();
afterAll(() => work.cleanup());

function write(file: string, lines: string[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

const at = (k: number) => new Date(Date.UTC(2026, 7, 20) + k * 1000).toISOString();
const SESSION = '5d0c2a4e-7b1f-4c3a-9e8d-2f6b1a0c9d3e';
const claudeHome = path.join(work.dir, 'claude', '.claude');
write(
  path.join(claudeHome, 'projects', '-home-dev-shop', `${SESSION}.jsonl`),
  Array.from({ length: LINES }, (_, k) =>
    JSON.stringify({ type: 'user', sessionId: SESSION, uuid: `u-${k}`, parentUuid: k === 0 ? null : `u-${k - 1}`, timestamp: at(k), message: { role: 'user', content: `line ${k}` } }),
  ),
);
const sidHome = path.join(work.dir, 'sid');
write(
  path.join(sidHome, 'trajectories', 'sessions', 's-rows', 'events.jsonl'),
  Array.from({ length: LINES }, (_, k) => JSON.stringify({ event: 'Notification', session_id: 's-rows', timestamp: at(k), data: { n: k } })),
);

interface RowGroups {
  groups: number;
  largest: number;
  rows: number;
}

async function rowGroups(db: string, table: string): Promise<RowGroups> {
  const sql = `SELECT count(DISTINCT row_group_id) AS groups, max(count) AS largest,
    (SELECT count(*) FROM ${table}) AS rows FROM pragma_storage_info('${table}')`;
  const { value } = await runJson<RowGroups[]>(['sql', sql, '--db', db]);
  return value[0];
}

async function load(db: string, home: string): Promise<void> {
  const run = await runCli(['load', home, '--db', db, '--quiet']);
  expect([run.code, run.stderr]).toEqual([0, '']);
}

describe('row groups of a --db', () => {
  it('a sid-code home alone: DuckDB’s own size', async () => {
    const db = path.join(work.dir, 'narrow.duckdb');
    await load(db, sidHome);
    expect(await rowGroups(db, 'events')).toEqual({ groups: 1, largest: LINES, rows: LINES });
  });

  it('Claude Code transcripts: 16,384 rows, kept when a sid-code home is loaded into the database later', async () => {
    const db = path.join(work.dir, 'wide.duckdb');
    await load(db, claudeHome);
    const claude = await rowGroups(db, 'claude_lines');
    expect(claude).toEqual({ groups: 2, largest: 16_384, rows: LINES });
    await load(db, sidHome);
    expect(await rowGroups(db, 'events')).toEqual({ groups: 2, largest: 16_384, rows: LINES });
    expect(await rowGroups(db, 'claude_lines')).toEqual(claude);
  });
});
