// The one architecture rule that is not about imports (those are .dependency-cruiser.cjs's, run by
// `npm test`): only the bin touches the process's output and exit, so that main() runs in-process.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const SRC = path.join(import.meta.dirname, '../../src');
const files = (fs.readdirSync(SRC, { recursive: true }) as string[]).filter((f) => /\.c?ts$/.test(f)).map((f) => f.split(path.sep).join('/'));
const PROCESS_OUTPUT = /process\.(stdout|stderr)\b|process\.exit\b|process\.exitCode|console\.(log|error|warn|info)/;

it('only src/cli.ts writes to stdout or stderr or sets the exit code', () => {
  expect(files.length).toBeGreaterThan(100);
  const offenders = files.filter((f) => f !== 'cli.ts' && PROCESS_OUTPUT.test(fs.readFileSync(path.join(SRC, f), 'utf8')));
  expect(offenders).toEqual([]);
});
