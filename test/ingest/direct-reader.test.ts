// The direct reader (DuckDB's read_json straight into the table, Node judging the doubtful
// lines) must give exactly what the staged reader gives, line for line, on every fixture; and
// the lines that lenient read_json gets wrong must come out as the strict parser says.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson, tempDir } from '../helpers/run-cli.js';

const EDGES = path.join(FIXTURES, 'direct-reader-edges');
const SESSIONS = 'trajectories/sessions';
const D1 = `${SESSIONS}/20260815-090000-0000d1e1/events.jsonl`;
const D2 = `${SESSIONS}/20260815-100000-0000d1e2/events.jsonl`;
const D3 = `${SESSIONS}/20260815-110000-0000d1e3/events.jsonl`;

interface Sources {
  files: { path: string; bytes: number; lines: number; valid: number; blank: number; malformed: number }[];
  problems: { where: string; line: number; byte_offset: number; kind: string; reason: string; excerpt: string }[];
}

const STAGED = { TRAJAUDIT_READER: 'staged' };
const EVENTS = 'SELECT * EXCLUDE (file_id) FROM events ORDER BY session_id, line';

describe('fixtures/direct-reader-edges through the direct reader', async () => {
  const { value, run } = await runJson<Sources>(['sources', EDGES]);

  it('accounts for every line of each file (worked out by hand)', () => {
    expect(run.code).toBe(0);
    expect(value.files.map(({ path: p, bytes, lines, valid, blank, malformed }) => ({ p, bytes, lines, valid, blank, malformed }))).toEqual([
      // blank: 2 (empty), 3 (spaces and a tab), 16 (a lone CR); valid: 1, 4 ({"foo":1}), 6 (leading
      // space), 7 (CRLF), 11 (lenient-looking strings), 14 (duplicate key), 15 (1e999), 17 (unterminated)
      { p: D1, bytes: 931, lines: 17, valid: 8, blank: 3, malformed: 6 },
      { p: D2, bytes: 209, lines: 4, valid: 2, blank: 0, malformed: 2 }, // a pretty-printed object: read_json refuses the file
      { p: D3, bytes: 204, lines: 3, valid: 2, blank: 0, malformed: 1 }, // invalid UTF-8: the scan refuses the file
    ]);
  });

  it('rejects what lenient read_json accepts, and explains what it cannot store', () => {
    expect(value.problems.map((p) => [p.where, p.byte_offset, p.kind])).toEqual([
      [`${D1}:5`, 139, 'malformed'], // lone surrogate: valid JSON, read_json gives an all-NULL row
      [`${D1}:8`, 387, 'malformed'], // a form feed after the object: read_json trims it
      [`${D1}:9`, 448, 'malformed'], // -nan: read_json accepts it
      [`${D1}:10`, 489, 'malformed'], // [1,2, ]: read_json accepts it
      [`${D1}:12`, 635, 'malformed'], // two objects run together
      [`${D1}:13`, 662, 'malformed'], // a raw control character inside a string
      [`${D1}:14`, 705, 'duplicate-key'], // "event" twice: valid, loaded with the first, listed
      [`${D2}:2`, 64, 'malformed'],
      [`${D2}:3`, 129, 'malformed'],
      [`${D3}:2`, 64, 'malformed'],
    ]);
    const reasons = value.problems.map((p) => p.reason);
    expect(reasons[0]).toBe('valid JSON that DuckDB cannot store (lone surrogate escape?)');
    expect(reasons[1]).toMatch(/control character U\+000C after the object/);
    expect(reasons[4]).toMatch(/two JSON values on one line/);
    expect(reasons[6]).toBe('the top-level key "event" is named more than once: the first value is stored, the later ones nowhere');
    // The Latin-1 é (byte E9) after `…"s":"caf`: byte 73 of the line; only it becomes U+FFFD.
    expect(reasons[9]).toBe('invalid UTF-8 byte sequence at byte 73 of the line');
    expect(value.problems[9].excerpt).toBe('{"event":"Latin1","timestamp":"2026-08-15T11:00:01.000Z","data":{"s":"caf\uFFFD"}}');
  });

  it('numbers rows by their line in the file, blank and bad lines included', async () => {
    const { value: rows } = await runJson<{ session_id: string; line: number; event: string | null }[]>(['sql', 'SELECT session_id, line, event FROM events ORDER BY session_id, line', EDGES]);
    expect(rows.map((r) => `${r.session_id.slice(-4)}:${r.line}:${r.event}`)).toEqual([
      'd1e1:1:SessionStart', 'd1e1:4:null', 'd1e1:6:LeadingSpace', 'd1e1:7:CarriageReturn', 'd1e1:11:LooksLenient',
      'd1e1:14:Duplicate', 'd1e1:15:Huge', 'd1e1:17:LastUnterminated',
      'd1e2:1:SessionStart', 'd1e2:4:SessionEnd', 'd1e3:1:SessionStart', 'd1e3:3:SessionEnd',
    ]);
  });
});

describe.each([
  // D2's pretty-printed object (two malformed lines) is read from a copy without them: only D3 is left.
  ['direct-reader-edges', [D3]],
  ['malformed-lines', []],
  ['home', []],
])('fixtures/%s: the direct and the staged reader agree', (fixture, refused) => {
  const home = path.join(FIXTURES, fixture);
  it('on the ledger, the problems and every row', async () => {
    const direct = await runJson<Sources>(['sources', home], { env: { TRAJAUDIT_DEBUG: '1' } });
    // Which files the direct reader left to the staged one: the comparison below is not vacuous.
    // (A file is named again when its group is read again after another one's refusal.)
    const refusals = [...direct.run.stderr.matchAll(/^direct read refused: (\S+?):/gm)].map((m) => path.relative(home, m[1]));
    expect([...new Set(refusals)].sort()).toEqual(refused);
    const staged = await runJson<Sources>(['sources', home], { env: STAGED });
    expect(direct.value).toEqual(staged.value);
    expect(direct.value.files.length).toBeGreaterThan(0);
    const rows = await runJson<unknown[]>(['sql', EVENTS, home]);
    const stagedRows = await runJson<unknown[]>(['sql', EVENTS, home], { env: STAGED });
    expect(rows.value).toEqual(stagedRows.value);
    expect(rows.value.length).toBeGreaterThan(0);
    const errors = 'SELECT * EXCLUDE (file_id) FROM error_records ORDER BY session_id, line';
    expect((await runJson(['sql', errors, home])).value).toEqual((await runJson(['sql', errors, home], { env: STAGED })).value);
  });
});

describe('a line longer than read_json\'s maximum_object_size', () => {
  it('is still read directly, whole', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const session = path.join(dir, 'trajectories/sessions/20260815-120000-0000b16a');
      fs.mkdirSync(session, { recursive: true });
      const big = JSON.stringify({ event: 'PostToolUse', timestamp: '2026-08-15T12:00:01.000Z', data: { output: 'x'.repeat(3 * 1024 * 1024) } });
      fs.writeFileSync(path.join(session, 'events.jsonl'), `{"event":"SessionStart"}\n${big}\n{"event":"SessionEnd"}\n`);
      const { value, run } = await runJson<{ line: number; event: string; n: number }[]>(
        ['sql', "SELECT line, event, strlen(data->>'output') AS n FROM events ORDER BY line", dir],
        { env: { TRAJAUDIT_DEBUG: '1' } },
      );
      expect(run.stderr).toBe('');
      expect(value).toEqual([
        { line: 1, event: 'SessionStart', n: null },
        { line: 2, event: 'PostToolUse', n: 3 * 1024 * 1024 },
        { line: 3, event: 'SessionEnd', n: null },
      ]);
    } finally {
      cleanup();
    }
  });
});

describe('a file with many blank lines', () => {
  it('is handed to the staged reader, with the same accounting', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const session = path.join(dir, 'trajectories/sessions/20260815-130000-0000b1a2');
      fs.mkdirSync(session, { recursive: true });
      // 100 records, each followed by a blank line: 200 lines.
      const lines = Array.from({ length: 100 }, (_, i) => `${JSON.stringify({ event: 'E', data: { index: i } })}\n\n`).join('');
      fs.writeFileSync(path.join(session, 'events.jsonl'), lines);
      const { value, run } = await runJson<Sources>(['sources', dir], { env: { TRAJAUDIT_DEBUG: '1' } });
      expect(run.stderr).toMatch(/^direct read refused: .*events\.jsonl: 100 blank lines\n$/);
      expect(value.files.map(({ lines: l, valid, blank, malformed }) => ({ l, valid, blank, malformed }))).toEqual([{ l: 200, valid: 100, blank: 100, malformed: 0 }]);
      const rows = (await runJson<{ line: number; idx: number }[]>(['sql', 'SELECT line, idx FROM events ORDER BY line LIMIT 3', dir])).value;
      expect(rows).toEqual([{ line: 1, idx: 0 }, { line: 3, idx: 1 }, { line: 5, idx: 2 }]);
    } finally {
      cleanup();
    }
  });
});

describe('small files read together, in one read_json statement', () => {
  // Each copy of D1 has blank, malformed and valid-but-keyless lines. A fourth file: D2, whose
  // pretty-printed object read_json would read across two lines (it failed the group's statement,
  // which was read again a file at a time), now read from a copy without its malformed lines like
  // the others; or one with a malformed line of one byte, too short to overwrite in the copy: that
  // file alone is read the staged way, the others still together.
  const ONE_BYTE = '{"event":"SessionStart","timestamp":"2026-08-15T10:00:00.000Z"}\nx\n{"event":"SessionEnd","timestamp":"2026-08-15T10:00:02.000Z"}\n';
  const copies = (dir: string, fourth: 'D2' | 'one byte' | null) => {
    const files = [D1, D1, D1, ...(fourth ? [fourth] : []), D1];
    files.forEach((file, k) => {
      const session = path.join(dir, SESSIONS, `20260815-1${k}0000-0000c0${k}${k}`);
      fs.mkdirSync(session, { recursive: true });
      if (file === 'one byte') fs.writeFileSync(path.join(session, 'events.jsonl'), ONE_BYTE);
      else fs.copyFileSync(path.join(EDGES, file === 'D2' ? D2 : file), path.join(session, 'events.jsonl'));
    });
  };
  it.each([
    ['number each file\'s rows from its own line 1, as the staged reader does', null, []],
    ['a file whose malformed lines would put read_json out of step is read with the others, from a copy without them', 'D2', []],
    ['a file the direct reader refuses before reading is read the staged way, the others together, with the same result', 'one byte', ['20260815-130000-0000c033']],
  ])('%s', async (_, fourth, refused) => {
    const withD2 = fourth !== null;
    const { dir, cleanup } = tempDir();
    try {
      copies(dir, fourth as 'D2' | 'one byte' | null);
      const direct = await runJson<Sources>(['sources', dir], { env: { TRAJAUDIT_DEBUG: '1' } });
      const refusals = [...direct.run.stderr.matchAll(/^direct read refused: (\S+?):/gm)].map((m) => path.basename(path.dirname(m[1])));
      expect([...new Set(refusals)]).toEqual(refused);
      expect(direct.run.stderr.includes('batched read refused')).toBe(false);
      expect(direct.value).toEqual((await runJson<Sources>(['sources', dir], { env: STAGED })).value);
      expect(direct.value.files.map((f) => f.valid)).toEqual(withD2 ? [8, 8, 8, 2, 8] : [8, 8, 8, 8]);
      const rows = (await runJson<unknown[]>(['sql', EVENTS, dir])).value;
      expect(rows).toEqual((await runJson<unknown[]>(['sql', EVENTS, dir], { env: STAGED })).value);
      expect(rows).toHaveLength(withD2 ? 34 : 32);
    } finally {
      cleanup();
    }
  });
});
