// Every TRAJAUDIT_* variable is checked before any input is read: a bad value is one line naming
// the variable, the value and the accepted form, exit 2 (never exit 3, never silently ignored).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runBinary, runCli } from '../helpers/run-cli.js';
import { sizeInBytes } from '../../src/environment.js';

const HOME = path.join(FIXTURES, 'home');

describe('TRAJAUDIT_* variables', () => {
  it.each([
    ['TRAJAUDIT_MEMORY_LIMIT', '512', /TRAJAUDIT_MEMORY_LIMIT="512" is not valid: give a size with its unit, e\.g\. 512MB/],
    ['TRAJAUDIT_MEMORY_LIMIT', '1 gigabyte', /TRAJAUDIT_MEMORY_LIMIT="1 gigabyte" is not valid/],
    ['TRAJAUDIT_READER', 'bogus', /TRAJAUDIT_READER="bogus" is not valid: use direct \(the default\) or staged/],
    ['TRAJAUDIT_PARALLEL', 'abc', /TRAJAUDIT_PARALLEL="abc" is not valid: give a whole number of connections/],
    ['TRAJAUDIT_PARALLEL', '0', /TRAJAUDIT_PARALLEL="0" is not valid/],
    ['TRAJAUDIT_COMMIT_BYTES', '64MiB', /TRAJAUDIT_COMMIT_BYTES="64MiB" is not valid: give a whole number of bytes/],
  ])('%s=%s exits 2 with one line', async (name, value, message) => {
    for (const args of [['sql', 'SELECT 1 AS a', HOME], ['load', HOME, '--db', path.join(FIXTURES, 'no-such-dir', 'x.db')]]) {
      const run = await runCli(args, { env: { [name]: value } });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^trajaudit: /);
    }
  });

  it.each([
    ['TRAJAUDIT_MEMORY_LIMIT', '1GiB'],
    ['TRAJAUDIT_MEMORY_LIMIT', '512 MB'],
    ['TRAJAUDIT_READER', 'staged'],
    ['TRAJAUDIT_READER', 'direct'],
    ['TRAJAUDIT_READER', ''],
    ['TRAJAUDIT_PARALLEL', '1'],
    ['TRAJAUDIT_COMMIT_BYTES', '67108864'],
  ])('%s=%j is accepted', async (name, value) => {
    const run = await runCli(['sql', 'SELECT count(*) AS n FROM events', HOME, '--format', 'csv'], { env: { [name]: value } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('n\r\n413\r\n');
  });
});

// Spawned: Node's flags (NODE_OPTIONS) apply as a process starts.
describe('a Node without WebAssembly (--jitless; or `ulimit -v` denying its memory)', () => {
  it('reads every file the staged way, with the same ledger and rows', async () => {
    const args = ['sources', HOME, '--format', 'json'];
    const plain = runBinary(args);
    const jitless = runBinary(args, { env: { NODE_OPTIONS: '--jitless' } });
    expect(jitless.code).toBe(0);
    expect(jitless.stdout).toBe(plain.stdout);
    const rows = ['sql', 'SELECT * EXCLUDE (file_id) FROM events ORDER BY session_id, line', HOME, '--format', 'json'];
    expect(runBinary(rows, { env: { NODE_OPTIONS: '--jitless' } }).stdout).toBe(runBinary(rows).stdout);
  });
});

describe('DuckDB\'s native binding that cannot be loaded (node --no-addons; node_modules from another platform)', () => {
  it('is one line saying so and what to do, exit 2; check, which never loads DuckDB, still runs', async () => {
    const run = runBinary(['sources', HOME], { env: { NODE_OPTIONS: '--no-addons' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`trajaudit: DuckDB's native binding for ${process.platform}-${process.arch} could not be loaded (Cannot load native addon because loading addons is disabled.); run \`npm ci\` on this machine (node_modules from another platform, or installed without optional packages, lack it), and run Node without --no-addons\n`);
    expect(runBinary(['check', path.join(FIXTURES, 'check-baseline')], { env: { NODE_OPTIONS: '--no-addons' } }).code).toBe(0);
  });
});

describe('sizeInBytes reads a memory size as DuckDB does', () => {
  it('decimal and binary units, any case, a fraction, space before the unit', () => {
    expect(sizeInBytes('192MB')).toBe(192e6);
    expect(sizeInBytes('1GiB')).toBe(2 ** 30);
    expect(sizeInBytes('1.5 gb')).toBe(1.5e9);
    expect(sizeInBytes('512KiB')).toBe(512 * 1024);
    expect(sizeInBytes('100 bytes')).toBe(100);
    expect(() => sizeInBytes('192')).toThrow(/not a size/);
    expect(() => sizeInBytes('1 constructor')).toThrow(/not a size/);
  });
});
