// A UTF-8 byte order mark at the start of a file is ignored (RFC 8259 §8.1 lets a parser do so)
// and its 3 bytes count as bytes of line 1; anywhere else a line starting with U+FEFF is not JSON.
// Both readers agree, on every file kind. read_csv drops the mark: the staged reader's byte
// figures used to be 3 short, and a terminated last line was called truncated-tail.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

const S1 = '20260815-091500-0badf00d';
const S2 = '20260815-101500-0badf00e';
const S3 = '20260815-111500-0badf00f';
const BOM = '\ufeff';
/** 158 bytes. */
const ev = (n: number) => `{"event":"BeforeModel","session_id":"${S1}","timestamp":"2026-08-15T01:15:0${n}.000Z","cwd":"/p","data":{"model":"m","index":${n},"msg_count":1}}`;
const STAGED = { TRAJAUDIT_READER: 'staged' };

interface Sources {
  files: { path: string; bytes: number; lines: number; valid: number; blank: number; malformed: number }[];
  problems: { where: string; byte_offset: number; kind: string; reason: string; excerpt: string }[];
}

let work: ReturnType<typeof tempDir>;
let home: string;
const session = (id: string) => path.join(home, 'trajectories/sessions', id);

beforeAll(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  for (const id of [S1, S2, S3]) fs.mkdirSync(session(id), { recursive: true });
  fs.writeFileSync(path.join(home, 'usage-ledger.jsonl'), `${BOM}{"sessionId":"${S1}","ts":1786756501,"model":"m","costUSD":0.1}\n{"x":\n`);
  fs.writeFileSync(path.join(session(S1), 'events.jsonl'), `${BOM}${ev(1)}\n${ev(2)}\n${BOM}${ev(3)}\n{"x":\n`);
  fs.writeFileSync(path.join(session(S2), 'events.jsonl'), `${BOM}\n${ev(2)}\n`);
  fs.writeFileSync(path.join(session(S2), 'warn.log'), `${BOM}[2026-08-15T01:15:01.000Z] [WARN] [X] hello\n`);
  fs.writeFileSync(path.join(session(S2), 'session-summary.json'), `${BOM}{"session_id":"${S1}","exit_status":"ok"}\n`);
  fs.writeFileSync(path.join(session(S3), 'events.jsonl'), BOM);
});
afterAll(() => work?.cleanup());

describe('a byte order mark at the start of a file', () => {
  const ledger = async (env: Record<string, string> = {}) => (await runJson<Sources>(['sources', home], { env })).value;

  it('counts as bytes of line 1, in every byte figure', async () => {
    const { files, problems } = await ledger();
    expect(files.map(({ path: p, bytes, lines, valid, blank, malformed }) => [p, bytes, lines, valid, blank, malformed])).toEqual([
      [`trajectories/sessions/${S1}/events.jsonl`, 3 + 159 + 159 + 3 + 159 + 6, 4, 2, 0, 2],
      [`trajectories/sessions/${S2}/events.jsonl`, 3 + 1 + 159, 2, 1, 1, 0], // a line of nothing but the mark is blank
      [`trajectories/sessions/${S2}/session-summary.json`, 3 + 61, 1, 1, 0, 0],
      [`trajectories/sessions/${S2}/warn.log`, 3 + 44, 1, 1, 0, 0],
      [`trajectories/sessions/${S3}/events.jsonl`, 3, 1, 0, 1, 0],
      ['usage-ledger.jsonl', 3 + 83 + 6, 2, 1, 0, 1],
    ]);
    expect(problems.map(({ where, byte_offset, kind }) => [where, byte_offset, kind])).toEqual([
      [`trajectories/sessions/${S1}/events.jsonl:3`, 321, 'malformed'], // U+FEFF inside the file starts no JSON text
      [`trajectories/sessions/${S1}/events.jsonl:4`, 483, 'malformed'], // terminated: not a truncated tail
      ['usage-ledger.jsonl:2', 86, 'malformed'],
    ]);
    expect(problems[0].reason).toBe('Unexpected token \'\ufeff\', "\ufeff{"event":"... is not valid JSON');
  });

  it('the staged reader gives the same ledger', async () => {
    expect(await ledger(STAGED)).toEqual(await ledger());
  });

  it('the first line is read as if the mark were not there, by both readers', async () => {
    const sql = `SELECT (SELECT list(session_id[-4:] || ':' || line || ':' || idx ORDER BY session_id, line) FROM events) AS events,
      (SELECT list(line || ':' || message) FROM warn_lines) AS warn, (SELECT list(exit_status) FROM session_summaries) AS summaries,
      (SELECT list(line || ':' || model) FROM usage_ledger) AS ledger`;
    const { value } = await runJson<unknown[]>(['sql', sql, home]);
    expect(value).toEqual([{ events: ['f00d:1:1', 'f00d:2:2', 'f00e:2:2'], warn: ['1:hello'], summaries: ['ok'], ledger: ['1:m'] }]);
    expect((await runJson(['sql', sql, home], { env: STAGED })).value).toEqual(value);
  });
});

describe('a byte order mark that starts the new tail of a grown file', () => {
  it('is inside the file: that line is malformed, as a fresh load of the whole file says', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'home/trajectories/sessions', S1, 'events.jsonl');
      const db = path.join(dir, 'audit.duckdb');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${ev(1)}\n`);
      await runJson(['load', path.join(dir, 'home'), '--db', db]);
      fs.appendFileSync(file, `${BOM}${ev(2)}\n${ev(3)}\n`);
      expect((await runJson<Record<string, number>[]>(['load', path.join(dir, 'home'), '--db', db])).value[0]).toMatchObject({ appended: 1, malformed_lines: 1 });
      const appended = (await runJson<Sources>(['sources', '--db', db])).value;
      expect(appended.files.map((f) => [f.bytes, f.lines, f.valid, f.malformed])).toEqual([[159 + 162 + 159, 3, 2, 1]]);
      expect(appended.problems.map((p) => [p.where, p.byte_offset, p.kind])).toEqual([[`trajectories/sessions/${S1}/events.jsonl:2`, 159, 'malformed']]);
      expect((await runJson<Sources>(['sources', path.join(dir, 'home')])).value).toEqual(appended);
    } finally {
      cleanup();
    }
  });
});
