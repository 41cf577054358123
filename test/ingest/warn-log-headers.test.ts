// A warn.log record's first line is a header whatever its message holds: the logger writes the
// message unmasked (docs/formats.md#warnlog), and a lone CR, U+2028 or U+2029 in it made the line no header,
// so it was folded into the record above (its time, level and category lost, and no line counted
// malformed) or, with no record above, listed as malformed. A header time with an offset counts in
// the file's time range like any other (it was left out when its UTC date was another day).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

let work: ReturnType<typeof tempDir>;
let home: string;
beforeEach(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  fs.mkdirSync(path.join(home, 'trajectories', 'sessions', 's1'), { recursive: true });
});
afterEach(() => work.cleanup());

const warnLog = (text: string) => fs.writeFileSync(path.join(home, 'trajectories', 'sessions', 's1', 'warn.log'), text);

it('a header whose message holds a lone CR, U+2028 or U+2029 starts its own record', async () => {
  warnLog([
    '[2026-08-01T10:00:00.000Z] [WARN] [APP] progress a\rb',
    '[2026-08-01T10:00:01.000Z] [WARN] [TOOL] text with \u2028 separator {"k":"v"}',
    '[2026-08-01T10:00:02.000Z] [ERROR] [APP] para \u2029 sep',
    'continued',
    '',
  ].join('\n'));
  const rows = (await runJson<unknown[]>(['sql', 'SELECT line, end_line, ts, level, category, message, data FROM warn_lines ORDER BY line', home])).value;
  expect(rows).toEqual([
    { line: 1, end_line: 1, ts: '2026-08-01T10:00:00.000Z', level: 'WARN', category: 'APP', message: 'progress a\rb', data: null },
    { line: 2, end_line: 2, ts: '2026-08-01T10:00:01.000Z', level: 'WARN', category: 'TOOL', message: 'text with \u2028 separator', data: { k: 'v' } },
    { line: 3, end_line: 4, ts: '2026-08-01T10:00:02.000Z', level: 'ERROR', category: 'APP', message: 'para \u2029 sep\ncontinued', data: null },
  ]);
  const { files, problems } = (await runJson<{ files: { lines: number; valid: number; malformed: number }[]; problems: unknown[] }>(['sources', home])).value;
  expect(files.map((f) => [f.lines, f.valid, f.malformed])).toEqual([[4, 4, 0]]);
  expect(problems).toEqual([]);
});

it('header times with an offset make the file\'s time range, also across a UTC day', async () => {
  warnLog('[2026-08-01T01:00:00.000+05:00] [WARN] [APP] one\n[2026-08-01T02:00:00.000+05:00] [WARN] [APP] two\n');
  const range = (await runJson<unknown[]>(['sql', 'SELECT min_ts, max_ts FROM input_files', home])).value;
  expect(range).toEqual([{ min_ts: '2026-07-31T20:00:00.000Z', max_ts: '2026-07-31T21:00:00.000Z' }]);
});
