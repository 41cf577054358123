// A line of nothing but ASCII whitespace with a form feed or vertical tab is malformed (only spaces,
// tabs and CRs make a blank line), but DuckDB's read_json passes over it without a row: the direct
// reader must not number the rows after it as if it had one. Here a malformed line's all-NULL row
// fell on the line passed over, the counts added up, and every later row took the line above's number.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

const ENVELOPE = '"session_id":"s1","timestamp":"2026-07-30T10:31:03.412Z"';
let work: ReturnType<typeof tempDir>;
let home: string;
beforeEach(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  fs.mkdirSync(path.join(home, 's1'), { recursive: true });
  fs.writeFileSync(path.join(home, 's1', 'events.jsonl'), [
    `{"event":"A",${ENVELOPE},"data":{}}`,
    '\v',
    `{'event':"B",${ENVELOPE},"data":{}}`,
    `{"event":"C",${ENVELOPE},"data":{}}`,
    `{"event":"D",${ENVELOPE},"data":{}}\f`,
  ].join('\n') + '\n');
});
afterEach(() => work.cleanup());

it.each([['without --db', []], ['with --db', ['--db']]])('a form feed or vertical tab line keeps every row on its line (%s)', async (_name, flag) => {
  const where = flag.length ? ['--db', path.join(work.dir, 'audit.duckdb')] : [home];
  if (flag.length) await runJson(['load', home, ...where]);
  const sources = (await runJson<{ files: { lines: number; valid: number; blank: number; malformed: number }[]; problems: { line: number }[] }>(['sources', ...where])).value;
  expect(sources.files.map((f) => [f.lines, f.valid, f.blank, f.malformed])).toEqual([[5, 2, 0, 3]]);
  expect(sources.problems.map((p) => p.line)).toEqual([2, 3, 5]);
  const rows = (await runJson<{ line: number; event: string }[]>(['sql', 'SELECT line, event FROM events ORDER BY line', ...where])).value;
  expect(rows).toEqual([{ line: 1, event: 'A' }, { line: 4, event: 'C' }]);
});
