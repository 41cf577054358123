import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

const HOME = path.join(FIXTURES, 'malformed-lines');
const FILE = 'trajectories/sessions/20260815-091500-0badf00d/events.jsonl';

interface Ledger {
  files: { path: string; lines: number; valid: number; blank: number; malformed: number; bytes: number }[];
  problems: { where: string; line: number; byte_offset: number; kind: string; reason: string; excerpt: string }[];
  totals: Record<string, number>;
}

describe('fixtures/malformed-lines: every line accounted for', async () => {
  const { value, run } = await runJson<Ledger>(['sources', HOME]);

  it('counts lines, valid, blank and malformed, and the invariant holds', () => {
    expect(run.code).toBe(0);
    expect(value.files).toEqual([{ path: FILE, kind: 'events', session_id: '20260815-091500-0badf00d', bytes: 1632, lines: 12, valid: 4, blank: 2, malformed: 6, ts_unread: 0 }]);
    for (const f of value.files) expect(f.valid + f.blank + f.malformed).toBe(f.lines);
  });

  it('lists every malformed line with file:line, byte offset, kind and reason', () => {
    expect(value.problems.map((p) => [p.where, p.byte_offset, p.kind])).toEqual([
      [`${FILE}:2`, 171, 'malformed'], // trailing comma: DuckDB would accept it
      [`${FILE}:4`, 348, 'malformed'], // two objects run together
      [`${FILE}:5`, 613, 'malformed'], // NaN: DuckDB would accept it
      [`${FILE}:6`, 827, 'malformed'], // an array, not an object
      [`${FILE}:8`, 1056, 'malformed'], // garbage
      [`${FILE}:12`, 1480, 'truncated-tail'], // unterminated last line from a crashed writer
    ]);
    expect(value.problems[1].reason).toMatch(/two JSON values on one line/);
    expect(value.problems[3].reason).toBe('valid JSON but an array, not an object');
    expect(value.problems[4].excerpt).toBe('garbage line from a crashed editor');
    expect(value.problems[0].excerpt).toHaveLength(120);
  });

  it('keeps a valid line whose strings merely look lenient (", }" and "Infinity" inside a string)', async () => {
    const { value: rows } = await runJson<{ line: number; event: string }[]>(['sql', 'SELECT line, event FROM events ORDER BY line', HOME]);
    expect(rows).toEqual([
      { line: 1, event: 'SessionStart' },
      { line: 7, event: 'PreToolUse' },
      { line: 9, event: 'PostToolUse' },
      { line: 11, event: 'SessionEnd' },
    ]);
  });

  it('--strict turns malformed lines into exit 1; without it the run succeeds and says so on stderr', async () => {
    const strict = await runCli(['sources', HOME, '--strict', '--format', 'json']);
    expect(strict.code).toBe(1);
    // sources says where its own output lists them (not "run trajaudit sources").
    expect(strict.stderr).toBe('trajaudit: 6 lines in 1 file could not be read; they are listed under `problems`\n');
    const where = async (...args: string[]) => (await runCli(['sources', HOME, '--strict', ...args])).stderr.replace('trajaudit: 6 lines in 1 file could not be read; ', '');
    expect(await where()).toBe('they are listed under "Unreadable lines"\n');
    expect(await where('--format', 'md')).toBe('they are listed under "Unreadable lines"\n');
    expect(await where('--section', 'problems')).toBe('they are the rows listed\n');
    expect(await where('--section', 'totals')).toBe('add `--section problems` to list them\n');
    expect(await where('--format', 'csv')).toBe('add `--section problems` to list them\n');
    const sql = await runCli(['sql', 'SELECT count(*) AS n FROM events', HOME, '--format', 'csv']);
    expect(sql.code).toBe(0);
    expect(sql.stdout).toBe('n\r\n4\r\n');
    expect(sql.stderr).toBe('trajaudit: 6 lines in 1 file could not be read; they are listed by `trajaudit sources`\n');
  });

  it('--section prints one part of the ledger: the unreadable lines as CSV, the totals as JSON', async () => {
    const csv = await runCli(['sources', HOME, '--section', 'problems', '--format', 'csv']);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe('where,path,line,byte_offset,kind,reason,excerpt');
    expect(lines.slice(1, -1).map((l) => l.split(',').slice(0, 5).join(','))).toEqual([
      `${FILE}:2,${FILE},2,171,malformed`,
      `${FILE}:4,${FILE},4,348,malformed`,
      `${FILE}:5,${FILE},5,613,malformed`,
      `${FILE}:6,${FILE},6,827,malformed`,
      `${FILE}:8,${FILE},8,1056,malformed`,
      `${FILE}:12,${FILE},12,1480,truncated-tail`,
    ]);
    // The same value as under "totals" in the whole document: one object.
    const totals = { files: 1, bytes: 1632, lines: 12, valid: 4, blank: 2, malformed: 6, ts_unread: 0, duplicate_keys: 0, skipped: 0, unreadable: 0 };
    expect((await runJson(['sources', HOME, '--section', 'totals'])).value).toEqual(totals);
    expect(((await runJson(['sources', HOME])).value as { totals: unknown }).totals).toEqual(totals);
  });
});

describe('lines only the Node splitter reads (CRLF, invalid UTF-8), in every JSONL format', () => {
  const work = tempDir();
  afterAll(work.cleanup);
  const db = path.join(work.dir, 'audit.duckdb');

  it('a ledger or index with a CRLF line or an invalid UTF-8 byte loads, each line accounted for', async () => {
    const home = path.join(work.dir, 'home');
    fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
    fs.appendFileSync(path.join(home, 'session-index.jsonl'), '{"session_id":"zz","ts":1787278600}\r\n');
    fs.appendFileSync(path.join(home, 'usage-ledger.jsonl'), Buffer.from('{"sessionId":"zz","ts":1787278600,"note":"\xff"}\n', 'latin1'));
    const { value, run } = await runJson<Ledger>(['sources', home, '--db', db]);
    expect(run.code).toBe(0);
    expect(value.files.filter((f) => !f.path.includes('/')).map((f) => [f.path, f.lines, f.valid, f.blank, f.malformed])).toEqual([
      ['session-index.jsonl', 6, 6, 0, 0],
      ['usage-ledger.jsonl', 8, 7, 0, 1],
    ]);
    expect(value.problems.filter((p) => p.where.startsWith('usage')).map((p) => [p.where, p.byte_offset, p.reason])).toEqual([
      ['usage-ledger.jsonl:8', 2076, 'invalid UTF-8 byte sequence at byte 42 of the line'], // the \xff after `…"note":"`
    ]);
  });

  it('a line of 7.5 MiB in a file with invalid UTF-8 fits the buffer pool of a --db load', async () => {
    const dir = path.join(work.dir, 'long', 'trajectories', 'sessions', '20260815-091500-1ongl1ne');
    fs.mkdirSync(dir, { recursive: true });
    const long = `{"event":"UserPromptSubmit","session_id":"x","timestamp":"2026-08-15T09:15:00.000Z","data":{"prompt":"${'a'.repeat(7.5 * 1024 * 1024)}"}}`;
    fs.writeFileSync(path.join(dir, 'events.jsonl'), Buffer.concat([Buffer.from(`{"event":"SessionStart","data":{}}\n${long}\n`), Buffer.from([0xff, 0x0a])]));
    const { value, run } = await runJson<Ledger>(['sources', path.join(work.dir, 'long'), '--db', path.join(work.dir, 'long.duckdb')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(value.files.map((f) => [f.lines, f.valid, f.blank, f.malformed])).toEqual([[3, 2, 0, 1]]);
  });
});
