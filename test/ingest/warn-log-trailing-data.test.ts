// warn.log's trailing JSON (docs/formats.md#warnlog) is found in time linear in the line: a long line with
// many spaces and brackets that never close used to take minutes (one 80 KB line: 70 s).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitTrailingData } from '../../src/formats/sid-code/adapters/warn-log.js';
import { runJson, tempDir } from '../helpers/run-cli.js';

/** The plain search the linear one must agree with: JSON.parse after every space. */
function everySpace(line: string): { message: string; data: string | null } {
  for (let i = line.indexOf(' '); i !== -1; i = line.indexOf(' ', i + 1)) {
    const rest = line.slice(i + 1);
    if (!/^[[{"]/.test(rest)) continue;
    try {
      JSON.parse(rest);
      return { message: line.slice(0, i), data: rest };
    } catch {
      // next space
    }
  }
  return { message: line, data: null };
}

describe('splitTrailingData', () => {
  it('agrees with parsing after every space, on lines built from the pieces that matter', () => {
    const pieces = [' ', ' ', '"', '\\', '[', ']', '{', '}', ':', ',', '1', 'a', '\t', 'x"', '{"a":1}', '[1, "b]"]', '"q\\"z"', 'null', ' {', '} ', '\r'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let withData = 0;
    for (let t = 0; t < 20000; t += 1) {
      const line = Array.from({ length: Math.floor(next() * 14) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const expected = everySpace(line);
      expect(splitTrailingData(line), JSON.stringify(line)).toEqual(expected);
      if (expected.data !== null) withData += 1;
    }
    expect(withData).toBeGreaterThan(500); // the comparison is not vacuous
  });
});

describe('a warn.log record with a long last line of unclosed brackets', () => {
  it('loads in seconds, its message whole and no trailing data', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const session = path.join(dir, 'trajectories/sessions/20260815-091500-0badf00d');
      fs.mkdirSync(session, { recursive: true });
      const body = `m ${'[ '.repeat(20000)}`;
      fs.writeFileSync(path.join(session, 'warn.log'), `[2026-08-01T00:00:00.000Z] [WARN] [X] ${body}\n[2026-08-01T00:00:01.000Z] [ERROR] [Y] done {"a":[1]}\n`);
      const started = Date.now();
      const { value, run } = await runJson<{ line: number; n: number; tail: string; data: unknown }[]>(
        ['sql', 'SELECT line, strlen(message) AS n, right(message, 4) AS tail, data FROM warn_lines ORDER BY line', dir],
      );
      expect(Date.now() - started).toBeLessThan(5000); // 15 s before: JSON.parse after each of 20,000 spaces
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(value).toEqual([
        { line: 1, n: body.length, tail: '[ [ ', data: null },
        { line: 2, n: 4, tail: 'done', data: { a: [1] } },
      ]);
    } finally {
      cleanup();
    }
  });
});
