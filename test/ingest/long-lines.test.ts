// Lines longer than the longest line read (8 MiB, docs/inputs.md#the-longest-line-8-mib) are
// listed, never lost and never a crash, by both readers alike; shorter ones load. The inputs are
// generated here: a last line past read_csv's 16 MiB buffer used to vanish, a line past 32 MiB
// (read_json's default object size, doubled) to end the run with exit 3 and a temp copy left behind.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

const MiB = 1024 * 1024;
const A = 'trajectories/sessions/20260815-091500-0000b16a';
const B = 'trajectories/sessions/20260815-101500-0000b16b';
const C = 'trajectories/sessions/20260815-111500-0000b16c';
const STAGED = { TRAJAUDIT_READER: 'staged' };

const ev = (event: string, second: number) => `{"event":"${event}","session_id":"x","timestamp":"2026-08-15T09:15:0${second}.000Z","data":{}}`; // 90 bytes for SessionStart, 88 for SessionEnd
/** A line of exactly `bytes` bytes. */
const padded = (prefix: string, bytes: number, suffix: string, pad = 'x') => `${prefix}${pad.repeat(bytes - prefix.length - suffix.length)}${suffix}`;

interface Sources {
  files: { path: string; bytes: number; lines: number; valid: number; blank: number; malformed: number }[];
  problems: { where: string; byte_offset: number; kind: string; reason: string; excerpt: string }[];
}

let work: ReturnType<typeof tempDir>;
let home: string;
let tmp: string;
const env = (extra: Record<string, string> = {}) => ({ TMPDIR: tmp, ...extra });

beforeAll(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  tmp = path.join(work.dir, 'tmp');
  fs.mkdirSync(tmp);
  for (const dir of [A, B, C]) fs.mkdirSync(path.join(home, dir), { recursive: true });
  const write = (file: string, text: string) => fs.writeFileSync(path.join(home, file), text);
  // A line past 32 MiB between two valid ones.
  write(`${A}/events.jsonl`, `${ev('SessionStart', 1)}\n${padded('{"event":"Big","data":{"s":"', 33 * MiB, '"}}')}\n${ev('SessionEnd', 3)}\n`);
  // A crashed writer's unterminated tail past read_csv's 16 MiB buffer.
  write(`${B}/events.jsonl`, `${ev('SessionStart', 1)}\n${padded('{"event":"Cut","data":{"s":"', 17 * MiB, '')}`);
  // A file whose only line is past 32 MiB.
  write(`${C}/events.jsonl`, `${padded('{"event":"Only","data":{"s":"', 33 * MiB, '"}}')}\n`);
  // A ledger whose last (and winning) row is past 16 MiB.
  write('usage-ledger.jsonl', `{"sessionId":"20260815-091500-0000b16a","ts":1786756501,"model":"old","costUSD":0.1}\n${padded('{"sessionId":"20260815-091500-0000b16a","ts":1786756999,"model":"new","costUSD":9.9,"note":"', 17 * MiB, '"}')}\n`);
  // A warn.log record past 32 MiB and its continuation; a 2 MiB record (its row is bound, not read from a file); a plain one.
  write(`${A}/warn.log`, [
    padded('[2026-08-15T09:15:01.000Z] [WARN] [BIG] ', 33 * MiB, '', 'z'),
    'continued',
    `[2026-08-15T09:15:02.000Z] [ERROR] [NEXT] ${'m'.repeat(2 * MiB)} {"a":1}`,
    '[2026-08-15T09:15:03.000Z] [WARN] [LAST] done',
  ].join('\n') + '\n');
  write(`${A}/heartbeat.txt`, `${padded('{"ts":"2026-08-15T09:15:04.000Z","pad":"', 9 * MiB, '"}', 'h')}\n`);
});
afterAll(() => work?.cleanup());

describe('lines longer than 8 MiB', () => {
  it('are counted and listed, by file, line, offset, kind and reason; --strict exits 1; nothing is left in the temp dir', async () => {
    const { value, run } = await runJson<Sources>(['sources', home, '--strict'], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('trajaudit: 7 lines in 6 files could not be read; they are listed under `problems`\n');
    expect(value.files.map(({ path: p, bytes, lines, valid, blank, malformed }) => [p, bytes, lines, valid, blank, malformed])).toEqual([
      [`${A}/events.jsonl`, 91 + (33 * MiB + 1) + 89, 3, 2, 0, 1],
      [`${A}/heartbeat.txt`, 9 * MiB + 1, 1, 0, 0, 1],
      [`${A}/warn.log`, (33 * MiB + 1) + 10 + (42 + 2 * MiB + 8 + 1) + 46, 4, 2, 0, 2],
      [`${B}/events.jsonl`, 91 + 17 * MiB, 2, 1, 0, 1],
      [`${C}/events.jsonl`, 33 * MiB + 1, 1, 0, 0, 1],
      ['usage-ledger.jsonl', 85 + 17 * MiB + 1, 2, 1, 0, 1],
    ]);
    const longer = (bytes: number) => `line longer than 8 MiB (${bytes} bytes): not read`;
    expect(value.problems.map(({ where, byte_offset, kind, reason }) => [where, byte_offset, kind, reason])).toEqual([
      [`${A}/events.jsonl:2`, 91, 'malformed', longer(33 * MiB)],
      [`${A}/heartbeat.txt:1`, 0, 'malformed', `${longer(9 * MiB)}; the whole document (1 line) is unread`],
      [`${A}/warn.log:1`, 0, 'malformed', longer(33 * MiB)],
      [`${A}/warn.log:2`, 33 * MiB + 1, 'malformed', 'continues the record of line 1, which is longer than 8 MiB: not read'],
      [`${B}/events.jsonl:2`, 91, 'truncated-tail', longer(17 * MiB)],
      [`${C}/events.jsonl:1`, 0, 'malformed', longer(33 * MiB)],
      ['usage-ledger.jsonl:2', 85, 'malformed', longer(17 * MiB)],
    ]);
    expect(value.problems[0].excerpt).toBe(`{"event":"Big","data":{"s":"${'x'.repeat(92)}`);
    expect(value.problems[2].excerpt).toBe(`[2026-08-15T09:15:01.000Z] [WARN] [BIG] ${'z'.repeat(80)}`);
    expect(value.problems[3].excerpt).toBe('continued');
    expect(fs.readdirSync(tmp).filter((name) => name !== 'trajaudit-duckdb-spill')).toEqual([]);
  });

  it('the staged reader gives the same ledger', async () => {
    const direct = await runJson<Sources>(['sources', home], { env: env() });
    const staged = await runJson<Sources>(['sources', home], { env: env(STAGED) });
    expect(staged.run.code).toBe(0);
    expect(staged.value).toEqual(direct.value);
  });

  it('the lines around them load, with the same rows from both readers', async () => {
    const sql = `SELECT (SELECT list(session_id[-4:] || ':' || line || ':' || event ORDER BY session_id, line) FROM events) AS events,
      (SELECT list({line: line, end_line: end_line, category: category, chars: strlen(message), tail: message[-4:], data: data} ORDER BY line) FROM warn_lines) AS warn,
      (SELECT list(model) FROM usage_ledger) AS ledger, (SELECT count(*) FROM heartbeats) AS heartbeats`;
    const { value, run } = await runJson<Record<string, unknown>[]>(['sql', sql, home], { env: env() });
    expect(run.code).toBe(0);
    expect(value).toEqual([{
      events: ['b16a:1:SessionStart', 'b16a:3:SessionEnd', 'b16b:1:SessionStart'],
      warn: [
        { line: 3, end_line: 3, category: 'NEXT', chars: 2 * MiB, tail: 'mmmm', data: { a: 1 } },
        { line: 4, end_line: 4, category: 'LAST', chars: 4, tail: 'done', data: null },
      ],
      ledger: ['old'], // the newer row is the one not read: listed above
      heartbeats: 0,
    }]);
    expect((await runJson(['sql', sql, home], { env: env(STAGED) })).value).toEqual(value);
  });
});

describe('the limit is exact', () => {
  it('a line of 8 MiB is read, one byte more is listed, by both readers', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const session = path.join(dir, A);
      fs.mkdirSync(session, { recursive: true });
      const eight = padded('{"event":"Eight","data":{"s":"', 8 * MiB, '"}}');
      const more = padded('{"event":"More","data":{"s":"', 8 * MiB + 1, '"}}');
      fs.writeFileSync(path.join(session, 'events.jsonl'), `${eight}\n${more}\n`);
      const sql = `SELECT (SELECT list([bytes, lines, valid, malformed]) FROM input_files) AS files,
        (SELECT list({line: line, byte_offset: byte_offset, reason: reason}) FROM input_problems) AS problems,
        (SELECT list({line: line, event: event, n: strlen(data->>'s')}) FROM events) AS events`;
      const direct = (await runJson<Record<string, unknown>[]>(['sql', sql, dir], { env: env() })).value;
      expect(direct).toEqual([{
        files: [[16 * MiB + 3, 2, 1, 1]],
        problems: [{ line: 2, byte_offset: 8 * MiB + 1, reason: `line longer than 8 MiB (${8 * MiB + 1} bytes): not read` }],
        events: [{ line: 1, event: 'Eight', n: 8 * MiB - 33 }],
      }]);
      expect((await runJson(['sql', sql, dir], { env: env(STAGED) })).value).toEqual(direct);
    } finally {
      cleanup();
    }
  });
});

describe('load --db of a file that grew by a line longer than 8 MiB', () => {
  it('lists the new long line, loads the line after it, and finds the file unchanged next time', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'home', A, 'events.jsonl');
      const db = path.join(dir, 'audit.duckdb');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${ev('SessionStart', 1)}\n`);
      const load = () => runJson<Record<string, number>[]>(['load', path.join(dir, 'home'), '--db', db], { env: env() });
      expect((await load()).value[0]).toMatchObject({ loaded: 1, malformed_lines: 0 });
      fs.appendFileSync(file, `${padded('{"event":"Grown","data":{"s":"', 17 * MiB, '"}}')}\n${ev('SessionEnd', 3)}\n`);
      const grown = await load();
      expect(grown.run.code).toBe(0);
      expect(grown.run.stderr).toBe('trajaudit: 1 line in 1 file could not be read; they are listed by `trajaudit sources`\n');
      expect(grown.value[0]).toMatchObject({ loaded: 0, appended: 1, malformed_lines: 1 });
      const { value } = await runJson<Sources>(['sources', '--db', db], { env: env() });
      expect(value.files.map((f) => [f.bytes, f.lines, f.valid, f.blank, f.malformed])).toEqual([[91 + 17 * MiB + 1 + 89, 3, 2, 0, 1]]);
      expect(value.problems.map((p) => [p.where, p.byte_offset, p.kind])).toEqual([[`${A}/events.jsonl:2`, 91, 'malformed']]);
      expect((await runJson(['sql', 'SELECT line, event FROM events ORDER BY line', '--db', db])).value).toEqual([{ line: 1, event: 'SessionStart' }, { line: 3, event: 'SessionEnd' }]);
      expect((await load()).value[0]).toMatchObject({ appended: 0, unchanged: 1 });
      expect((await runCli(['sql', 'SELECT count(*) AS n FROM events', '--db', db, '--format', 'csv'])).stdout).toBe('n\r\n2\r\n');
    } finally {
      cleanup();
    }
  });
});
