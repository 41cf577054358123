import { afterEach, describe, expect, it } from 'vitest';
import { copyWithOneCallFixed, runCli } from '../checks/run-cli.js';

// A stale entry has no line left to carry a result, so SARIF says it in the invocation: without
// it, a --strict run that exits 1 had a SARIF file of baselined results only, and nothing said why.
let cleanup = () => {};
afterEach(() => cleanup());

function fixedOne(): string {
  const copy = copyWithOneCallFixed();
  cleanup = copy.cleanup;
  return copy.dir;
}

const entry = 'direct-provider-call src/agent/loop.ts AgentLoop.summarize this.client.sendMessageStream';
const invocationOf = (stdout: string) => JSON.parse(stdout).runs[0].invocations[0];

describe('check --format sarif names stale baseline entries', () => {
  it('--strict: an error notification per stale entry, on the baseline file, and the execution marked failed', async () => {
    const dir = fixedOne();
    const run = await runCli(['check', '.', '--strict', '--format', 'sarif'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(invocationOf(run.stdout)).toEqual({
      executionSuccessful: false,
      toolExecutionNotifications: [
        {
          level: 'error',
          message: {
            text: `stale baseline entry (fixed or gone): ${entry}; --strict fails the run on stale entries: run trajaudit check --update-baseline to drop it`,
          },
          locations: [{ physicalLocation: { artifactLocation: { uri: 'trajaudit-baseline.json', uriBaseId: '%SRCROOT%' } } }],
          associatedRule: { id: 'direct-provider-call', index: 0 },
          properties: {
            baselineEntry: expect.objectContaining({ rule: 'direct-provider-call', file: 'src/agent/loop.ts', scope: 'AgentLoop.summarize', count: 1 }),
          },
        },
      ],
    });
  });

  it('without --strict: a note, and the execution successful', async () => {
    const dir = fixedOne();
    const run = await runCli(['check', '.', '--format', 'sarif'], { cwd: dir });
    expect(run.code).toBe(0);
    const invocation = invocationOf(run.stdout);
    expect(invocation.executionSuccessful).toBe(true);
    expect(invocation.toolExecutionNotifications.map((n: { level: string; message: { text: string } }) => [n.level, n.message.text])).toEqual([
      ['note', `stale baseline entry (fixed or gone): ${entry}; run trajaudit check --update-baseline to drop it`],
    ]);
  });

  it('no stale entry: no notification; new findings do not mark the execution failed', async () => {
    const run = await runCli(['check', 'fixtures/check-call-forms', '--strict', '--format', 'sarif']);
    expect(run.code).toBe(1);
    expect(invocationOf(run.stdout)).toEqual({ executionSuccessful: true });
  });
});
