// A lone '\r' is JSON whitespace inside a line, never a line end: DuckDB's read_csv (the staged
// reader's line splitter) ends a row at one in some shapes (a line starting " \r", a '\r' first in
// the range read, a '\r' last in it), so the staged reader checks its rows against the file's
// '\n' count and bytes, and lets Node split the file when they differ.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

const ENVELOPE = '"session_id":"s1","timestamp":"2026-07-30T10:31:03.412Z"';
const ok = (name: string) => `{"event":"${name}",${ENVELOPE},"data":{}}\n`;
const bad = (name: string) => `{"event":"${name}",${ENVELOPE},bad}\n`;

interface FileRow { path: string; bytes: number; lines: number; valid: number; blank: number; malformed: number }
interface Sources { files: FileRow[]; problems: { where: string; byte_offset: number }[] }

let work: ReturnType<typeof tempDir>;
let home: string;
let db: string;
const events = () => path.join(home, 'trajectories', 'sessions', 's1', 'events.jsonl');
const write = (text: string) => fs.writeFileSync(events(), text);
const append = (text: string) => fs.appendFileSync(events(), text);
const sources = async (...where: string[]) => (await runJson<Sources>(['sources', ...where])).value;
const eventLines = async (...where: string[]) => (await runJson<{ line: number; event: string }[]>(['sql', 'SELECT line, event FROM events ORDER BY line', ...where])).value.map((r) => `${r.line} ${r.event}`);
const counts = (files: FileRow[]) => files.map((f) => [f.bytes, f.lines, f.valid, f.blank, f.malformed]);

beforeEach(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  db = path.join(work.dir, 'audit.duckdb');
  fs.mkdirSync(path.dirname(events()), { recursive: true });
});
afterEach(() => work.cleanup());

describe('a lone CR in the staged reader', () => {
  it('a line starting " \\r" in a file with 65 blank lines (staged without --db) keeps every line number', async () => {
    const text = ok('A') + ` \r${ok('B')}` + ok('C') + '\n'.repeat(65) + bad('D') + ok('E');
    write(text);
    const { files, problems } = await sources(home);
    expect(counts(files)).toEqual([[Buffer.byteLength(text), 70, 4, 65, 1]]);
    expect(problems.map((p) => p.where)).toEqual(['trajectories/sessions/s1/events.jsonl:69']);
    expect(await eventLines(home)).toEqual(['1 A', '2 B', '3 C', '70 E']);
  });

  it('TRAJAUDIT_READER=staged gives what the direct reader gives for a file starting with "\\r"', async () => {
    write(`\r${ok('A')}` + ` \r${ok('B')}` + bad('C') + ok('D'));
    const direct = await sources(home);
    const staged = (await runJson<Sources>(['sources', home], { env: { TRAJAUDIT_READER: 'staged' } })).value;
    expect(counts(staged.files)).toEqual(counts(direct.files));
    expect(counts(staged.files)).toEqual([[direct.files[0].bytes, 4, 3, 0, 1]]);
    expect(staged.problems).toEqual(direct.problems);
    expect((await runJson<{ line: number }[]>(['sql', 'SELECT line FROM events ORDER BY line', home], { env: { TRAJAUDIT_READER: 'staged' } })).value.map((r) => r.line)).toEqual([1, 2, 4]);
  });

  it('--db: a grown tail with a line starting " \\r" is numbered as a fresh load numbers it', async () => {
    write(ok('A') + ok('B'));
    await runJson(['load', home, '--db', db]);
    append(` \r${ok('C')}` + bad('D') + ok('E'));
    await runJson(['load', home, '--db', db]);
    expect(counts((await sources('--db', db)).files)).toEqual(counts((await sources(home)).files));
    expect(counts((await sources('--db', db)).files)).toEqual([[fs.statSync(events()).size, 5, 4, 0, 1]]);
    expect((await sources('--db', db)).problems.map((p) => p.where)).toEqual(['trajectories/sessions/s1/events.jsonl:4']);
    expect(await eventLines('--db', db)).toEqual(['1 A', '2 B', '3 C', '5 E']);
  });

  it('--db: a torn tail that is only "\\r", completed by the next append, is no blank line', async () => {
    write(`${ok('A')}\r`);
    await runJson(['load', home, '--db', db]);
    append(ok('B') + ok('C'));
    await runJson(['load', home, '--db', db]);
    expect(counts((await sources('--db', db)).files)).toEqual([[fs.statSync(events()).size, 3, 3, 0, 0]]);
    expect(await eventLines('--db', db)).toEqual(['1 A', '2 B', '3 C']);
  });

  it('--db: a grown tail ending with an unterminated " \\r" counts every byte', async () => {
    write(ok('A'));
    await runJson(['load', home, '--db', db]);
    append(`${ok('B')} \r`);
    await runJson(['load', home, '--db', db]);
    expect(counts((await sources('--db', db)).files)).toEqual([[fs.statSync(events()).size, 3, 2, 1, 0]]);
    expect(counts((await sources(home)).files)).toEqual([[fs.statSync(events()).size, 3, 2, 1, 0]]);
  });

  it('usage-ledger.jsonl (always staged): a line starting " \\r" keeps the later line numbers', async () => {
    write(ok('A'));
    const ledger = path.join(home, 'usage-ledger.jsonl');
    fs.writeFileSync(ledger, '{"sessionId":"s1","ts":1787278600}\n \r{"sessionId":"s2","ts":1787278601}\n{"sessionId":"s3","ts":1787278602}\n');
    const file = (await sources(home)).files.find((f) => f.path === 'usage-ledger.jsonl');
    expect(file && [file.bytes, file.lines, file.valid, file.blank]).toEqual([fs.statSync(ledger).size, 3, 3, 0]);
    const rows = (await runJson<{ line: number; session_id: string }[]>(['sql', 'SELECT line, session_id FROM usage_ledger_rows ORDER BY line', home])).value;
    expect(rows.map((r) => `${r.line} ${r.session_id}`)).toEqual(['1 s1', '2 s2', '3 s3']);
  });
});
