// A line of exactly MAX_LINE_BYTES beside another long one, in a --db load (192 MB pool): Node
// splits such a file and each long line is parsed alone, json_valid apart from json_transform
// (together they needed more pool than the limit leaves beside a second 5 MiB line).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

const ENVELOPE = '"session_id":"s1","timestamp":"2026-07-30T10:31:03.412Z"';
const small = (name: string) => `{"event":"${name}",${ENVELOPE},"data":{}}`;
/** A valid event line of exactly `bytes` bytes. */
function long(name: string, bytes: number): string {
  const head = `{"event":"${name}",${ENVELOPE},"data":{"pad":"`;
  return `${head}${'x'.repeat(bytes - head.length - 3)}"}}`;
}

let work: ReturnType<typeof tempDir>;
beforeEach(() => {
  work = tempDir();
});
afterEach(() => work.cleanup());

it('load --db reads a line of exactly 8 MiB next to a line of 5 MiB', async () => {
  const home = path.join(work.dir, 'home');
  fs.mkdirSync(path.join(home, 's1'), { recursive: true });
  fs.writeFileSync(path.join(home, 's1', 'events.jsonl'), [small('a'), long('L8', 8 * 1024 * 1024), small('b'), long('L5', 5 * 1024 * 1024)].join('\n') + '\n');
  const db = path.join(work.dir, 'audit.duckdb');
  const { value, run } = await runJson<{ malformed_lines: number }[]>(['load', home, '--db', db]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(value[0].malformed_lines).toBe(0);
  const rows = (await runJson<{ line: number; event: string; n: number | null }[]>(['sql', "SELECT line, event, length(data->>'pad') AS n FROM events ORDER BY line", '--db', db])).value;
  expect(rows.map((r) => [r.line, r.event, r.n])).toEqual([[1, 'a', null], [2, 'L8', 8 * 1024 * 1024 - 89], [3, 'b', null], [4, 'L5', 5 * 1024 * 1024 - 89]]);
});
