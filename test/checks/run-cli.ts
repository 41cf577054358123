import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, REPO, runCli, type CliRun } from '../helpers/run-cli.js';

export { type CliRun, runCli } from '../helpers/run-cli.js';
export const repoRoot = REPO;
export const cliPath = CLI;

export interface CheckJson {
  version: number;
  findings: Array<{
    rule: string;
    file: string;
    line: number;
    column: number;
    message: string;
    state: string;
    fingerprint: string;
    severity: string;
    scope: string;
    anchor: string;
    resolution: string;
    reason?: string;
    details?: Record<string, string>;
  }>;
  stale: Array<{ rule: string; file: string; scope: string; anchor: string; hash: string; count: number }>;
  summary: Record<string, number | boolean>;
}

export async function checkJson(args: string[], options: { cwd?: string } = {}): Promise<{ json: CheckJson; run: CliRun }> {
  const run = await runCli(['check', ...args, '--format', 'json'], options);
  if (!run.stdout.startsWith('{')) throw new Error(`no JSON on stdout (exit ${run.code}): ${run.stderr}`);
  return { json: JSON.parse(run.stdout) as CheckJson, run };
}

/** A scratch copy of a fixture: baseline scenarios mutate the copy, never the fixture. */
export function copyFixture(name: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `trajaudit-${name}-`));
  cpSync(path.join(repoRoot, 'fixtures', name), dir, { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A copy of fixtures/check-baseline (4 direct calls and the baseline that records them) with one
 * call fixed, so that its baseline entry is stale.
 */
export function copyWithOneCallFixed(): { dir: string; cleanup: () => void } {
  const copy = copyFixture('check-baseline');
  const file = path.join(copy.dir, 'src/agent/loop.ts');
  const text = readFileSync(file, 'utf8');
  const next = text.replace("yield* this.client.sendMessageStream(history, { model: 'small' });", "yield 'summary';");
  if (next === text) throw new Error('fixtures/check-baseline/src/agent/loop.ts no longer holds the call to fix');
  writeFileSync(file, next);
  return copy;
}
