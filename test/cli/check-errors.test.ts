import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../checks/run-cli.js';

const abs = (p: string) => path.join(repoRoot, p);

describe('check: usage and config errors exit 2 with one clear line', () => {
  it('unknown config key, named with its path and the file', () => {
    const run = runCli(['check', 'fixtures/check-config-unknown-key']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `trajaudit: ${abs('fixtures/check-config-unknown-key/trajaudit.config.json')}: unknown key "rules.direct-provider-call.allowPaths"; remove it or check the spelling (see trajaudit.schema.json)\n`,
    );
  });

  it('allow entry without a reason', () => {
    const run = runCli(['check', 'fixtures/check-config-missing-reason']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `trajaudit: ${abs('fixtures/check-config-missing-reason/trajaudit.config.json')}: invalid value at "rules.direct-provider-call.allow[0].reason": an allow entry needs a "reason" (why the exception is deliberate)\n`,
    );
  });

  it('missing --config file, missing --baseline file, missing root', () => {
    const config = runCli(['check', 'fixtures/check-baseline', '--config', 'nope.json']);
    expect([config.code, config.stderr]).toEqual([2, `trajaudit: config file not found: ${abs('nope.json')}; check the --config path\n`]);
    const baseline = runCli(['check', 'fixtures/check-baseline', '--baseline', 'nope.json']);
    expect([baseline.code, baseline.stderr]).toEqual([
      2,
      'trajaudit: baseline file not found: nope.json; check the path, or create it with --update-baseline --allow-additions\n',
    ]);
    const root = runCli(['check', 'fixtures/no-such-dir']);
    expect([root.code, root.stderr]).toEqual([2, 'trajaudit: check root not found: fixtures/no-such-dir; pass an existing directory\n']);
  });

  it('--allow-additions without --update-baseline', () => {
    const run = runCli(['check', 'fixtures/check-baseline', '--allow-additions']);
    expect([run.code, run.stderr]).toEqual([2, 'trajaudit: --allow-additions only makes sense with --update-baseline\n']);
  });
});
