import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editDatabase } from '../helpers/edit-database.js';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

// A valid record whose time is no time (hour 24:31, 30 February, epoch ms where sid-code writes
// ISO-8601) is stored with ts NULL; its time is kept as written in ts_unread, and `sources` counts
// such records per file. They are valid JSON, not malformed lines: valid + malformed + blank = lines.
const work = tempDir();
afterAll(work.cleanup);
const root = path.join(work.dir, 'home');
fs.mkdirSync(path.join(root, 's1'), { recursive: true });
fs.writeFileSync(path.join(root, 's1/events.jsonl'), [
  '{"event":"SessionStart","session_id":"s1","timestamp":"2026-07-30T10:31:03.412Z","data":{}}',
  '{"event":"SubagentStop","session_id":"s1","timestamp":"2026-07-30T24:31:03.412Z","data":{"agent_id":"subagent-x-a00000001","status":"error"}}',
  '{"event":"SessionEnd","session_id":"s1","timestamp":1785407463412,"data":{}}',
  '{"event":"NoTime","session_id":"s1","data":{}}',
  '{"event":"NullTime","session_id":"s1","timestamp":null,"data":{}}',
  '{"event":"Garbage","session_id":"s1","timestamp":"garbage","data":{}}',
].map((l) => `${l}\n`).join(''));
fs.writeFileSync(path.join(root, 's1/errors.jsonl'), '{"event":"Error","timestamp":"2026-02-30T10:41:02.551Z","session_id":"s1","data":{"phase":"stream","index":5,"error":"e"}}\n');
fs.writeFileSync(path.join(root, 's1/warn.log'), '[2026-02-30T10:35:24.586Z] [ERROR] [A] 429\n[2026-07-30T10:35:24.586Z] [WARN] [A] fine\n');

const sql = async (query: string, args: string[]) => {
  const { value, run } = await runJson<Record<string, unknown>[]>(['sql', query, ...args]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return value;
};

const TIMES = `SELECT 'events' AS t, line, ts, ts_unread FROM events UNION ALL SELECT 'errors', line, ts, ts_unread FROM error_records
  UNION ALL SELECT 'warn', line, ts, ts_unread FROM warn_lines ORDER BY 1, 2`;
const EXPECTED = [
  { t: 'errors', line: 1, ts: null, ts_unread: '2026-02-30T10:41:02.551Z' },
  { t: 'events', line: 1, ts: '2026-07-30T10:31:03.412Z', ts_unread: null },
  { t: 'events', line: 2, ts: null, ts_unread: '2026-07-30T24:31:03.412Z' },
  { t: 'events', line: 3, ts: null, ts_unread: '1785407463412' },
  { t: 'events', line: 4, ts: null, ts_unread: null }, // no time at all: nothing to keep
  { t: 'events', line: 5, ts: null, ts_unread: null },
  { t: 'events', line: 6, ts: null, ts_unread: 'garbage' },
  { t: 'warn', line: 1, ts: null, ts_unread: '2026-02-30T10:35:24.586Z' },
  { t: 'warn', line: 2, ts: '2026-07-30T10:35:24.586Z', ts_unread: null },
];

describe('records whose time cannot be read keep it in ts_unread', () => {
  it('events, errors and warn.log, with either reader', async () => {
    expect(await sql(TIMES, [root])).toEqual(EXPECTED);
    const staged = await runJson<Record<string, unknown>[]>(['sql', TIMES, root], { env: { TRAJAUDIT_READER: 'staged' } });
    expect(staged.value).toEqual(EXPECTED);
  });

  it('sources counts them per file and in the totals, as valid lines, not malformed ones; --strict passes', async () => {
    const { value, run } = await runJson<{ files: Record<string, unknown>[]; problems: unknown[]; totals: Record<string, unknown> }>(['sources', root, '--strict']);
    expect(run.code).toBe(0);
    expect(value.files.map(({ path: p, lines, valid, malformed, ts_unread }) => ({ p, lines, valid, malformed, ts_unread }))).toEqual([
      { p: 's1/errors.jsonl', lines: 1, valid: 1, malformed: 0, ts_unread: 1 },
      { p: 's1/events.jsonl', lines: 6, valid: 6, malformed: 0, ts_unread: 3 },
      { p: 's1/warn.log', lines: 2, valid: 2, malformed: 0, ts_unread: 1 },
    ]);
    expect(value.problems).toEqual([]);
    expect(value.totals).toMatchObject({ lines: 9, valid: 9, malformed: 0, ts_unread: 5 });
    expect((await runCli(['sources', root, '--section', 'files', '--format', 'csv'])).stdout.split(/\r?\n/)[0]).toBe('path,kind,session_id,bytes,lines,valid,blank,malformed,ts_unread');
  });

  it('the same through load --db; a database made before ts_unread gains it, for the lines loaded from then on', async () => {
    const db = path.join(work.dir, 'times.duckdb');
    expect((await runCli(['load', root, '--db', db, '--quiet'])).code).toBe(0);
    expect(await sql(TIMES, ['--db', db])).toEqual(EXPECTED);
    editDatabase(db, [
      ...['events', 'error_records', 'warn_lines'].map((t) => `ALTER TABLE ${t} DROP COLUMN ts_unread`),
      "UPDATE trajaudit_meta SET value = 'before ts_unread' WHERE key = 'schema_version'",
    ]);
    fs.appendFileSync(path.join(root, 's1/events.jsonl'), '{"event":"Late","session_id":"s1","timestamp":"2026-13-01T00:00:00Z","data":{}}\n');
    expect((await runCli(['load', root, '--db', db, '--quiet'])).code).toBe(0);
    expect(await sql(`SELECT line, ts_unread FROM events WHERE line IN (2, 7) ORDER BY line`, ['--db', db])).toEqual([
      { line: 2, ts_unread: null }, // loaded before the column existed: its text was not kept then
      { line: 7, ts_unread: '2026-13-01T00:00:00Z' },
    ]);
    expect((await runJson<{ totals: Record<string, unknown> }>(['sources', '--db', db])).value.totals).toMatchObject({ lines: 10, ts_unread: 1 });
  });
});

describe('a time in the last year DuckDB can hold (294247)', () => {
  it('is kept in ts_unread: its text would not read back, and the file\'s time range could not be stored', async () => {
    const home = path.join(work.dir, 'far');
    fs.mkdirSync(path.join(home, 's2'), { recursive: true });
    fs.writeFileSync(path.join(home, 's2/events.jsonl'), [
      '{"event":"SessionStart","session_id":"s2","timestamp":"2026-07-30T10:31:03.412Z","data":{}}',
      '{"event":"Far","session_id":"s2","timestamp":"294247-01-10T04:00:54.775Z","data":{}}',
    ].map((l) => `${l}\n`).join(''));
    fs.writeFileSync(path.join(home, 's2/errors.jsonl'), '{"timestamp":"294247-01-10T04:00:54.775806Z","session_id":"s2","data":{}}\n');
    const q = `SELECT 'events' AS t, line, ts, ts_unread FROM events UNION ALL SELECT 'errors', line, ts, ts_unread FROM error_records ORDER BY 1, 2`;
    const expected = [
      { t: 'errors', line: 1, ts: null, ts_unread: '294247-01-10T04:00:54.775806Z' },
      { t: 'events', line: 1, ts: '2026-07-30T10:31:03.412Z', ts_unread: null },
      { t: 'events', line: 2, ts: null, ts_unread: '294247-01-10T04:00:54.775Z' },
    ];
    const db = path.join(work.dir, 'far.duckdb');
    expect((await runCli(['load', home, '--db', db, '--quiet'])).code).toBe(0);
    expect(await sql(q, ['--db', db])).toEqual(expected);
    expect(await sql(q, [home])).toEqual(expected);
  });
});

describe('a time DuckDB would read but that is no ISO-8601 time with a zone', () => {
  // DuckDB's cast reads `epoch` as 1970, `-infinity`, loose forms, a zone-less time as UTC, and a
  // zone name, after which the zone-less times of the same chunk came out shifted by that zone.
  const home = path.join(work.dir, 'lenient');
  const dir = path.join(home, 's3');
  fs.mkdirSync(dir, { recursive: true });
  const times = [
    '2026-08-20T10:00:00.000Z',
    '2026-08-20T10:00:01 America/New_York',
    '2026-08-20 11:02:03',
    'epoch',
    '-infinity',
    'infinity',
    '2026-8-2 1:2:3',
    '2026-08-20T10:00:00.000',
    '2026-08-20',
    '2026-08-20T10:00:04+05:30',
    '2026-08-20 10:00:05.5Z',
    '2026-08-20T10:00:06-0700',
    '2026-08-20T10:00:07.000Z',
    ' 026-08-20T10:00:08.000Z',
    '-026-08-20T10:00:09.000Z',
  ];
  fs.writeFileSync(path.join(dir, 'events.jsonl'), times.map((t, k) => `${JSON.stringify({ event: `E${k + 1}`, session_id: 's3', timestamp: t, data: {} })}\n`).join(''));
  fs.writeFileSync(path.join(dir, 'heartbeat.txt'), '{"ts":"epoch","session_id":"s3"}');
  const read: Record<number, string> = {
    1: '2026-08-20T10:00:00.000Z',
    10: '2026-08-20T04:30:04.000Z',
    11: '2026-08-20T10:00:05.500Z',
    12: '2026-08-20T17:00:06.000Z',
    13: '2026-08-20T10:00:07.000Z',
  };
  const expected = times.map((t, k) => (read[k + 1] ? { line: k + 1, ts: read[k + 1], ts_unread: null } : { line: k + 1, ts: null, ts_unread: t }));
  const q = 'SELECT line, ts, ts_unread FROM events ORDER BY line';

  it('is kept as written in ts_unread, with either reader; times with Z or an offset are read', async () => {
    expect(await sql(q, [home])).toEqual(expected);
    const staged = await runJson<Record<string, unknown>[]>(['sql', q, home], { env: { TRAJAUDIT_READER: 'staged' } });
    expect(staged.run.code).toBe(0);
    expect(staged.value).toEqual(expected);
  });

  it('leaves the session and file time range to the times it read, and a heartbeat of `epoch` without a time', async () => {
    expect(await sql('SELECT first_event_ts, last_event_ts FROM sessions', [home])).toEqual([
      { first_event_ts: '2026-08-20T04:30:04.000Z', last_event_ts: '2026-08-20T17:00:06.000Z' },
    ]);
    const db = path.join(work.dir, 'lenient.duckdb');
    expect((await runCli(['load', home, '--db', db, '--quiet'])).code).toBe(0);
    expect(await sql(`SELECT kind, min_ts, max_ts FROM input_files ORDER BY kind`, ['--db', db])).toEqual([
      { kind: 'events', min_ts: '2026-08-20T04:30:04.000Z', max_ts: '2026-08-20T17:00:06.000Z' },
      { kind: 'heartbeat', min_ts: null, max_ts: null },
    ]);
    expect(await sql('SELECT ts, record FROM heartbeats', ['--db', db])).toEqual([{ ts: null, record: { ts: 'epoch', session_id: 's3' } }]);
  });
});

describe('a --since/--until window over a file whose first time has no zone', () => {
  it('does not skip the file on that time: Node reads a time only as the load does', async () => {
    const home = path.join(work.dir, 'window');
    fs.mkdirSync(path.join(home, 's4'), { recursive: true });
    fs.writeFileSync(path.join(home, 's4/events.jsonl'), [
      '{"event":"SessionStart","session_id":"s4","timestamp":"2026-08-25T10:00:00.000","data":{}}',
      '{"event":"RetryTelemetry","session_id":"s4","timestamp":"2026-08-19T10:00:00.000Z","data":{"type":"retry","attempt":1,"delayMs":1000,"model":"m"}}',
    ].map((l) => `${l}\n`).join(''));
    const { value, run } = await runJson<Record<string, unknown>[]>(['query', 'retry-telemetry', home, '--since', '2026-08-18', '--until', '2026-08-24']);
    expect(run.code).toBe(0);
    expect(value).toEqual([{ type: 'retry', events: 1, main_loop: 1, subagent: 0, sessions: 1, agents: 0 }]);
    expect(run.stderr).toBe('trajaudit: 1 row has no readable time (timestamp missing or not an ISO-8601 time), so --since/--until leave it out: s4/events.jsonl:1; the report lists them under Input coverage\n');
  });
});

describe('a warn.log record whose header time has an offset or a space', () => {
  it('is a record of its own, its time read, not folded into the record above', async () => {
    const home = path.join(work.dir, 'warn-offsets');
    fs.mkdirSync(path.join(home, 's5'), { recursive: true });
    fs.writeFileSync(path.join(home, 's5/warn.log'), [
      '[2026-08-20T10:00:00.000Z] [WARN] [APP] first',
      '[2026-08-20T15:30:04+05:30] [ERROR] [LLM:OPENAI] offset header',
      '[2026-08-20 10:00:05.000Z] [ERROR] [LLM:OPENAI] space header',
      '[2026-02-30T10:00:06.000Z] [ERROR] [LLM:OPENAI] no such day',
      '[2026-08-20T10:00:07 PST] [ERROR] [LLM:OPENAI] a zone name: no header, the line continues the record above',
    ].map((l) => `${l}\n`).join(''));
    expect(await sql('SELECT line, end_line, ts, ts_unread, level, category, message FROM warn_lines ORDER BY line', [home])).toEqual([
      { line: 1, end_line: 1, ts: '2026-08-20T10:00:00.000Z', ts_unread: null, level: 'WARN', category: 'APP', message: 'first' },
      { line: 2, end_line: 2, ts: '2026-08-20T10:00:04.000Z', ts_unread: null, level: 'ERROR', category: 'LLM:OPENAI', message: 'offset header' },
      { line: 3, end_line: 3, ts: '2026-08-20T10:00:05.000Z', ts_unread: null, level: 'ERROR', category: 'LLM:OPENAI', message: 'space header' },
      { line: 4, end_line: 5, ts: null, ts_unread: '2026-02-30T10:00:06.000Z', level: 'ERROR', category: 'LLM:OPENAI', message: 'no such day\n[2026-08-20T10:00:07 PST] [ERROR] [LLM:OPENAI] a zone name: no header, the line continues the record above' },
    ]);
  });
});
