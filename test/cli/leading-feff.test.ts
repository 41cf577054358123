// A U+FEFF that starts a text value is a character like any other (only a file's own byte order
// mark is passed over): @duckdb/node-api's decoder dropped it from every VARCHAR it handed back, so
// sql cells and problem excerpts lost it; trajaudit gives node-api a decoder that keeps it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

const FEFF = '\ufeff';
const ENVELOPE = '"session_id":"s1","timestamp":"2026-07-30T10:31:03.412Z"';

let work: ReturnType<typeof tempDir>;
let home: string;
beforeEach(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  const dir = path.join(home, 's1');
  fs.mkdirSync(dir, { recursive: true });
  // A named event starting with U+FEFF, then a line starting with one (not JSON), then one holding only it.
  fs.writeFileSync(path.join(dir, 'events.jsonl'), `{"event":"${FEFF}Start",${ENVELOPE},"data":{"s":"\\ufeffabc"}}\n${FEFF}{"event":"x"}\n${FEFF}\n`);
});
afterEach(() => work.cleanup());

describe('a leading U+FEFF in output', () => {
  it('sql keeps it in json and csv', async () => {
    expect((await runJson<{ v: string }[]>(['sql', "SELECT chr(65279) || 'x' AS v", home])).value).toEqual([{ v: `${FEFF}x` }]);
    expect((await runCli(['sql', "SELECT chr(65279) || 'x' AS v", home, '--format', 'csv'])).stdout).toBe(`v\r\n${FEFF}x\r\n`);
  });

  it('table and md show it as an escape: an invisible character must not make two names look alike', async () => {
    const table = await runCli(['sql', 'SELECT event FROM events', home]);
    expect(table.stdout).toContain('│ \\ufeffStart │');
    expect((await runCli(['sql', 'SELECT event FROM events', home, '--format', 'md'])).stdout).toBe('| event |\n| --- |\n| \\ufeffStart |\n');
  });

  it('an event name and a data string keep it', async () => {
    const rows = (await runJson<{ event: string; s: string }[]>(['sql', "SELECT event, data->>'s' AS s FROM events", home])).value;
    expect(rows).toEqual([{ event: `${FEFF}Start`, s: `${FEFF}abc` }]);
  });

  for (const [name, env] of [['direct', {}], ['staged', { TRAJAUDIT_READER: 'staged' }]] as const) {
    it(`the excerpt of a line starting with it shows it (${name} reader, and --db)`, async () => {
      for (const where of [[home], [home, '--db', path.join(work.dir, `${name}.duckdb`)]]) {
        const problems = (await runJson<{ problems: { line: number; excerpt: string }[] }>(['sources', ...where], { env })).value.problems;
        expect(problems.map((p) => [p.line, p.excerpt])).toEqual([[2, `${FEFF}{"event":"x"}`], [3, FEFF]]);
      }
    });
  }
});
