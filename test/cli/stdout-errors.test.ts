// stdout that cannot take the whole output (a full disk, a file-size limit, /dev/full): one line
// and exit 2, never exit 0 with a cut document (CI would upload a cut SARIF) nor a stack trace.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURES, tempDir } from '../helpers/run-cli.js';

const work = tempDir();
afterAll(work.cleanup);
const sh = (script: string) => spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, CLI, FIXTURES } });

describe('stdout that cannot take the output', () => {
  it('a file-size limit: exit 2 and a line saying the output is incomplete', () => {
    const out = path.join(work.dir, 'cut.sarif');
    const run = sh(`ulimit -f 4; "${process.execPath}" "$CLI" check "$FIXTURES/check-baseline" --format sarif > "${out}"`);
    expect([run.status, run.stderr]).toEqual([2, 'trajaudit: cannot write the output to stdout: file too large (a file-size limit, ulimit -f?); what was written is incomplete: free space, raise the limit or send the output elsewhere, and run again\n']);
    expect(fs.statSync(out).size).toBe(4096); // bash's blocks are 1 KiB
  });

  it.runIf(fs.existsSync('/dev/full'))('/dev/full: exit 2 and one line, no stack trace', () => {
    const run = sh(`"${process.execPath}" "$CLI" sources "$FIXTURES/home" > /dev/full`);
    expect([run.status, run.stderr]).toEqual([2, 'trajaudit: cannot write the output to stdout: no space left on device; what was written is incomplete: free space, raise the limit or send the output elsewhere, and run again\n']);
  });

  it('a reader of stderr that has gone does not change the exit code', () => {
    const out = path.join(work.dir, 'q.out');
    // The query warns of the fixtures' malformed lines on stderr, into a pipe whose reader is gone.
    const run = sh(`"${process.execPath}" "$CLI" query retry-by-agent "$FIXTURES/home" 2>&1 >"${out}" | (exec 0<&-; sleep 0.5); echo "rc=\${PIPESTATUS[0]}"`);
    expect(run.stdout).toBe('rc=0\n');
    expect(fs.readFileSync(out, 'utf8')).toMatch(/\(\d+ rows?\)\n$/);
  });
});
