// Loads started at the same moment on a --db that does not exist yet: one makes the database, the
// others find it busy (or load after it); none removes a file it did not make, so the database a
// run that exited 0 wrote is there afterwards, whole.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURES, REPO, runCli, tempDir } from '../helpers/run-cli.js';

const { dir, cleanup } = tempDir('trajaudit-concurrent-loads-');
afterAll(cleanup);

function load(db: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'load', path.join(FIXTURES, 'home'), '--db', db, '--quiet'], {
      cwd: REPO,
      env: { ...process.env, DUCKDB_JE_MALLOC_CONF: undefined, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('first loads started at once on one new --db', () => {
  it('leave the database a successful run wrote, every round', { timeout: 120_000 }, async () => {
    const BUSY = /^trajaudit: database .* is busy: another process has it open/;
    for (let round = 0; round < 4; round += 1) {
      const db = path.join(dir, `race-${round}.duckdb`);
      const runs = await Promise.all(Array.from({ length: 6 }, () => load(db)));
      const ok = runs.filter((run) => run.code === 0);
      expect(ok.length, JSON.stringify(runs)).toBeGreaterThan(0);
      // Every other run found the database busy, with nothing else said.
      for (const run of runs.filter((r) => r.code !== 0)) expect(run.stderr).toMatch(BUSY);
      expect(fs.existsSync(db), `round ${round}: ${JSON.stringify(runs)}`).toBe(true);
      const totals = await runCli(['sources', '--db', db, '--section', 'totals', '--format', 'json']);
      expect(totals.code, totals.stderr).toBe(0);
      expect(JSON.parse(totals.stdout).files).toBeGreaterThan(0);
      // Nothing of a run that lost is left beside it.
      expect(fs.readdirSync(dir).filter((f) => f.startsWith(`race-${round}`) || f.includes(`race-${round}.duckdb`)).sort()).toEqual([`race-${round}.duckdb`]);
    }
  });
});
