// One set of line rules for every file kind: what a blank line is, how a line that is not UTF-8
// is listed, what a torn last line of warn.log is, and what happens to a lone surrogate escape
// (half an emoji, as a JavaScript writer leaves it when it cuts a string) in each kind.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

const S = '20260815-091500-0badf00d';
const DIR = `trajectories/sessions/${S}`;
const SESSION_START = `{"event":"SessionStart","session_id":"${S}","timestamp":"2026-08-15T01:15:01.000Z","data":{}}\n`;

interface Sources {
  files: { path: string; bytes: number; lines: number; valid: number; blank: number; malformed: number }[];
  problems: { where: string; byte_offset: number; kind: string; reason: string; excerpt: string }[];
}

const temps: (() => void)[] = [];
afterAll(() => temps.forEach((cleanup) => cleanup()));

/** A home with one session directory holding `files` (name → bytes), plus home-level `top` files. */
function home(files: Record<string, string | Buffer>, top: Record<string, string | Buffer> = {}): string {
  const { dir, cleanup } = tempDir();
  temps.push(cleanup);
  fs.mkdirSync(path.join(dir, DIR), { recursive: true });
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, DIR, name), bytes);
  for (const [name, bytes] of Object.entries(top)) fs.writeFileSync(path.join(dir, name), bytes);
  return dir;
}

const counts = (value: Sources) => value.files.map((f) => [f.path.replace(`${DIR}/`, ''), f.lines, f.valid, f.blank, f.malformed]);
const listed = (value: Sources) => value.problems.map((p) => [p.where.replace(`${DIR}/`, ''), p.byte_offset, p.kind, p.reason, p.excerpt]);

describe('a lone surrogate escape never stops a load', () => {
  const h = home(
    {
      'events.jsonl': SESSION_START,
      'warn.log': '[2026-08-15T01:15:01.000Z] [WARN] [SUBAGENT] cut {"description":"fix \\ud83d"}\n[2026-08-15T01:15:02.000Z] [ERROR] [APP] next {"n":1}\n',
      'session-summary.json': `{\n  "session_id": "${S}",\n  "exit_status": "\\ud800",\n  "abnormal": false\n}\n`,
      'heartbeat.txt': `{"ts":"2026-08-15T01:15:01.000Z","session_id":"${S}","note":"\\udc00"}`,
    },
    // Not a surrogate escape, but V8 names this unexpected emoji by its first half (and quotes
    // the 10 characters before it).
    { 'usage-ledger.jsonl': `{"sessionId":"${S}","a": \u{1F600}}\n` },
  );

  it('documents are listed, each line, the one holding the escape saying which and where; --strict exits 1', async () => {
    const { value, run } = await runJson<Sources>(['sources', h, '--strict']);
    expect(run.code).toBe(1);
    expect(counts(value)).toEqual([
      ['events.jsonl', 1, 1, 0, 0],
      ['heartbeat.txt', 1, 0, 0, 1],
      ['session-summary.json', 5, 0, 0, 5],
      ['warn.log', 2, 2, 0, 0],
      ['usage-ledger.jsonl', 1, 0, 0, 1],
    ]);
    // Positions count UTF-16 units of the document: `{"ts":"…",` is 33, `"session_id":"…",` 41 more,
    // `"note":"` 7 more; in the summary, line 3 starts at 46 and `  "exit_status": "` is 18 long.
    const cannot = (escape: string, at: number) => `valid JSON that DuckDB cannot store (lone surrogate escape ${escape} in JSON at position ${at})`;
    const part = `part of a JSON document that is unread (line 3: ${cannot('\\ud800', 64)})`;
    expect(listed(value)).toEqual([
      ['heartbeat.txt:1', 0, 'malformed', `${cannot('\\udc00', 81)}; the whole document (1 line) is unread`, `{"ts":"2026-08-15T01:15:01.000Z","session_id":"${S}","note":"\\udc00"}`],
      ['session-summary.json:1', 0, 'malformed', part, '{'],
      ['session-summary.json:2', 2, 'malformed', part, `  "session_id": "${S}",`],
      ['session-summary.json:3', 46, 'malformed', `${cannot('\\ud800', 64)}; the whole document (5 lines) is unread`, '  "exit_status": "\\ud800",'],
      ['session-summary.json:4', 73, 'malformed', part, '  "abnormal": false'],
      ['session-summary.json:5', 93, 'malformed', part, '}'],
      ['usage-ledger.jsonl:1', 0, 'malformed', `Unexpected token '\uFFFD', ..."00d","a": \u{1F600}}" is not valid JSON`, `{"sessionId":"${S}","a": \u{1F600}}`],
    ]);
  });

  it('warn.log keeps the record: the JSON DuckDB cannot hold stays in the message, as written, and data is NULL', async () => {
    const { value, run } = await runJson<Record<string, unknown>[]>(['sql', 'SELECT line, level, message, data FROM warn_lines ORDER BY line', h]);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      { line: 1, level: 'WARN', message: 'cut {"description":"fix \\ud83d"}', data: null },
      { line: 2, level: 'ERROR', message: 'next', data: { n: 1 } },
    ]);
  });

  it('load --db succeeds and says how many lines could not be read', async () => {
    const db = path.join(h, '..', `${path.basename(h)}.duckdb`);
    temps.push(() => fs.rmSync(db, { force: true }));
    const run = await runCli(['load', h, '--db', db, '--format', 'csv']);
    expect([run.code, run.stderr]).toEqual([0, 'trajaudit: 7 lines in 3 files could not be read; they are listed by `trajaudit sources`\n']);
  });
});

describe('warn.log: an unterminated last line is a torn write (sid-code ends every record with a newline)', () => {
  const cutInHeader = home({ 'events.jsonl': SESSION_START, 'warn.log': '[2026-08-15T01:15:01.000Z] [WARN] [APP] hello\n[2026-08-15T01:15:02.000Z] [ERR' });
  const cutInMessage = home({ 'events.jsonl': SESSION_START, 'warn.log': '[2026-08-15T01:15:01.000Z] [WARN] [APP] hello\n[2026-08-15T01:15:02.000Z] [ERROR] [APP] 429 {"err' });
  const torn = 'no newline at the end: sid-code ends every warn.log record with one, so this write was cut short';

  it.each([
    ['inside its header', cutInHeader, '[2026-08-15T01:15:02.000Z] [ERR'],
    ['inside its message', cutInMessage, '[2026-08-15T01:15:02.000Z] [ERROR] [APP] 429 {"err'],
  ])('cut %s: listed as truncated-tail at byte 46, --strict exits 1', async (_, h, excerpt) => {
    const { value, run } = await runJson<Sources>(['sources', h, '--strict']);
    expect(run.code).toBe(1);
    expect(counts(value)[1]).toEqual(['warn.log', 2, 1, 0, 1]);
    expect(listed(value)).toEqual([['warn.log:2', 46, 'truncated-tail', torn, excerpt]]);
  });

  it('the record above keeps its message and end_line', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['sql', 'SELECT line, end_line, level, message FROM warn_lines', cutInHeader]);
    expect(value).toEqual([{ line: 1, end_line: 1, level: 'WARN', message: 'hello' }]);
  });
});

describe('blank means spaces, tabs and CRs in every kind; invalid UTF-8 is listed in every kind', async () => {
  const h = home({
    // Lines 3 and 4: a form feed, a no-break space (C2 A0).
    'events.jsonl': Buffer.concat([Buffer.from(`${SESSION_START}\n\f\n\u00a0\n`), Buffer.from(SESSION_START)]),
    'warn.log': Buffer.concat([
      Buffer.from('[2026-08-15T01:15:01.000Z] [WARN] [APP] a\n\n\f\n\u00a0\n'), // offsets 0, 42, 43, 45
      Buffer.from('[2026-08-15T01:15:02.000Z] [ERROR] [APP] b '), Buffer.from([0xff, 0x0a]), // 48; 0xFF at 43
      Buffer.from('\t\r\n'), // 93
      Buffer.from('[2026-08-15T01:15:03.000Z] [WARN] [APP] c\ncaf'), Buffer.from([0xe9, 0x0a]), // 96, 138 (Latin-1 é)
      Buffer.from('[2026-08-15T01:15:04.000Z] [WARN] [APP] d\n'), // 143
    ]),
    'session-summary.json': `{\n\u00a0\n  "session_id": "${S}"\n}\n`,
    'heartbeat.txt': Buffer.concat([Buffer.from('{"ts":"2026-08-15T01:15:01.000Z","note":"caf'), Buffer.from([0xe9, 0x22, 0x7d])]),
  });
  const { value, run } = await runJson<Sources>(['sources', h]);

  it('counts the same lines blank in every kind', () => {
    expect(run.code).toBe(0);
    expect(counts(value)).toEqual([
      ['events.jsonl', 5, 2, 1, 2],
      ['heartbeat.txt', 1, 0, 0, 1],
      ['session-summary.json', 4, 0, 0, 4],
      // valid: record a (lines 1, 3, 4) and d (9); a record with a bad byte is unread whole (5; 7–8)
      ['warn.log', 9, 4, 2, 3],
    ]);
  });

  it('lists what does not decode with the first bad byte, and the line that breaks a document with the parser reason', () => {
    const utf8 = (at: number) => `invalid UTF-8 byte sequence at byte ${at} of the line`;
    const summaryReason = "Expected property name or '}' in JSON at position 2";
    const part = `part of a JSON document that is unread (line 2: ${summaryReason})`;
    expect(listed(value).filter(([where]) => !String(where).startsWith('events'))).toEqual([
      ['heartbeat.txt:1', 0, 'malformed', `${utf8(44)}; the whole document (1 line) is unread`, '{"ts":"2026-08-15T01:15:01.000Z","note":"caf\uFFFD"}'],
      ['session-summary.json:1', 0, 'malformed', part, '{'],
      ['session-summary.json:2', 2, 'malformed', `${summaryReason}; the whole document (4 lines) is unread`, '\u00a0'],
      ['session-summary.json:3', 5, 'malformed', part, `  "session_id": "${S}"`],
      ['session-summary.json:4', 48, 'malformed', part, '}'],
      ['warn.log:5', 48, 'malformed', utf8(43), '[2026-08-15T01:15:02.000Z] [ERROR] [APP] b \uFFFD'],
      ['warn.log:7', 96, 'malformed', `part of a warn.log record that is unread (line 8: ${utf8(3)})`, '[2026-08-15T01:15:03.000Z] [WARN] [APP] c'],
      ['warn.log:8', 138, 'malformed', `${utf8(3)}; the whole record (2 lines) is unread`, 'caf\uFFFD'],
    ]);
  });

  it('a form feed or no-break space line is part of a warn.log message, as it is not blank', async () => {
    const { value: rows } = await runJson<Record<string, unknown>[]>(['sql', 'SELECT line, end_line, message FROM warn_lines ORDER BY line', h]);
    expect(rows).toEqual([
      { line: 1, end_line: 4, message: 'a\n\n\f\n\u00a0' },
      { line: 9, end_line: 9, message: 'd' },
    ]);
  });

  it('a document is listed at the line where the parser stopped, even for an unexpected token V8 gives no position for', async () => {
    const h2 = home({ 'events.jsonl': SESSION_START, 'session-summary.json': '{\n  "a": 1,\n  "b": x\n}\n' });
    const { value: v2 } = await runJson<Sources>(['sources', h2]);
    // `{\n` and `  "a": 1,\n` are 12 characters, `  "b": ` 7 more.
    const reason = "Unexpected token 'x' in JSON at position 19";
    expect(listed(v2).map(([where, , kind, why]) => [where, kind, why])).toEqual([
      ['session-summary.json:1', 'malformed', `part of a JSON document that is unread (line 3: ${reason})`],
      ['session-summary.json:2', 'malformed', `part of a JSON document that is unread (line 3: ${reason})`],
      ['session-summary.json:3', 'malformed', `${reason}; the whole document (4 lines) is unread`],
      ['session-summary.json:4', 'malformed', `part of a JSON document that is unread (line 3: ${reason})`],
    ]);
  });
});

describe('a JSONL line that is not UTF-8: the first bad byte, and an excerpt with only the bad bytes replaced', () => {
  const h = home({
    'events.jsonl': Buffer.concat([
      Buffer.from(`${SESSION_START}{"p":"修复错误 `), Buffer.from([0xff]), Buffer.from('"}\n'), // 修复错误: 12 bytes; 0xFF at 6 + 12 + 1
      Buffer.from('{"p":"\uFFFD ok '), Buffer.from([0xe4, 0xbf]), Buffer.from('"}\n'), // a real U+FFFD (3 bytes), then half of 修 at 13
    ]),
  });

  it.each([['default', {}], ['staged', { TRAJAUDIT_READER: 'staged' }]])('the %s reader', async (_, env) => {
    const { value } = await runJson<Sources>(['sources', h], { env });
    expect(listed(value)).toEqual([
      ['events.jsonl:2', 114, 'malformed', 'invalid UTF-8 byte sequence at byte 19 of the line', '{"p":"修复错误 \uFFFD"}'],
      ['events.jsonl:3', 137, 'malformed', 'invalid UTF-8 byte sequence at byte 13 of the line', '{"p":"\uFFFD ok \uFFFD"}'],
    ]);
  });
});
