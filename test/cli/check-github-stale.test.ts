import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyWithOneCallFixed, repoRoot, runCli } from '../checks/run-cli.js';

let cleanup = () => {};
afterEach(() => cleanup());

function fixedOne(): string {
  const copy = copyWithOneCallFixed();
  cleanup = copy.cleanup;
  return copy.dir;
}

describe('check --format github names stale baseline entries', () => {
  it('--strict: an error annotation on the baseline file says which entry failed the run and what to do', async () => {
    const dir = fixedOne();
    const run = await runCli(['check', '.', '--strict', '--format', 'github'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      '::error file=trajaudit-baseline.json,title=trajaudit stale baseline entry::stale baseline entry (fixed or gone): ' +
        'direct-provider-call src/agent/loop.ts AgentLoop.summarize this.client.sendMessageStream; ' +
        '--strict fails the run on stale entries: run trajaudit check --update-baseline to drop it',
      'trajaudit: 0 new, 3 baselined, 0 allowed, 0 info, 1 stale (3 files scanned, 3 parsed)',
    ]);
  });

  it('without --strict: a notice, and the run passes; an absolute root outside a work tree gives a path from the current directory', async () => {
    const dir = fixedOne();
    const run = await runCli(['check', dir, '--format', 'github']);
    expect(run.code).toBe(0);
    const [annotation] = run.stdout.split('\n');
    expect(annotation).toBe(
      `::notice file=${path.relative(repoRoot, dir)}/trajaudit-baseline.json,title=trajaudit stale baseline entry::stale baseline entry (fixed or gone): ` +
        `direct-provider-call src/agent/loop.ts AgentLoop.summarize this.client.sendMessageStream; run trajaudit check ${dir} --update-baseline to drop it`,
    );
  });
});
