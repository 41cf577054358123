import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, repoRoot, runCli } from '../checks/run-cli.js';

const abs = (p: string) => path.join(repoRoot, p);

describe('check: usage and config errors exit 2 with one clear line', () => {
  it('unknown config key, named with its path and the file', async () => {
    const run = await runCli(['check', 'fixtures/check-config-unknown-key']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `trajaudit: ${abs('fixtures/check-config-unknown-key/trajaudit.config.json')}:3: unknown key "rules.direct-provider-call.allowPaths"; remove it or check the spelling (see trajaudit.schema.json)\n`,
    );
  });

  it('allow entry without a reason', async () => {
    const run = await runCli(['check', 'fixtures/check-config-missing-reason']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `trajaudit: ${abs('fixtures/check-config-missing-reason/trajaudit.config.json')}:3: invalid value at "rules.direct-provider-call.allow[0].reason": an allow entry needs a "reason" (why the exception is deliberate)\n`,
    );
  });

  it('missing --config file, missing --baseline file, missing root', async () => {
    const config = await runCli(['check', 'fixtures/check-baseline', '--config', 'nope.json']);
    expect([config.code, config.stderr]).toEqual([2, `trajaudit: config file not found: ${abs('nope.json')}; check the --config path\n`]);
    const baseline = await runCli(['check', 'fixtures/check-baseline', '--baseline', 'nope.json']);
    expect([baseline.code, baseline.stderr]).toEqual([
      2,
      'trajaudit: baseline file not found: nope.json; check the path, or create it with --update-baseline --allow-additions\n',
    ]);
    const root = await runCli(['check', 'fixtures/no-such-dir']);
    expect([root.code, root.stderr]).toEqual([2, 'trajaudit: check root not found: fixtures/no-such-dir; pass an existing directory\n']);
  });

  it('--config or --baseline that never ends (/dev/zero): stopped at 256 MiB, one line (it was "Invalid string length")', async () => {
    const config = await runCli(['check', 'fixtures/check-baseline', '--config', '/dev/zero']);
    expect([config.code, config.stdout, config.stderr]).toEqual([2, '', 'trajaudit: config /dev/zero holds more than 256 MiB, which no config does (a device such as /dev/zero?); pass a JSON config file\n']);
    const baseline = await runCli(['check', 'fixtures/check-baseline', '--baseline', '/dev/zero']);
    expect([baseline.code, baseline.stdout, baseline.stderr]).toEqual([2, '', "trajaudit: baseline /dev/zero holds more than 256 MiB, which no baseline does (a device such as /dev/zero?); pass the baseline's JSON file\n"]);
  });

  it('config that is not valid JSON: file:line:column of the error', async () => {
    const run = await runCli(['check', 'fixtures/check-config-invalid-json']);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      '',
      `trajaudit: ${abs('fixtures/check-config-invalid-json/trajaudit.config.json')}:3:34: not valid JSON (trailing comma before '}'); fix the file or pass another with --config\n`,
    ]);
  });

  it('baseline that is not valid JSON: file:line:column; with merge-conflict markers: says so', async () => {
    const copy = copyFixture('check-baseline');
    try {
      const file = path.join(copy.dir, 'trajaudit-baseline.json');
      const lines = readFileSync(file, 'utf8').split('\n');
      writeFileSync(file, [...lines.slice(0, 5), `${lines[5]},`, ...lines.slice(6)].join('\n'));
      const comma = await runCli(['check', copy.dir]);
      expect([comma.code, comma.stdout, comma.stderr]).toEqual([
        2,
        '',
        `trajaudit: ${file}:6:152: baseline is not valid JSON (trailing comma before ']'); restore it from version control\n`,
      ]);

      writeFileSync(file, [...lines.slice(0, 3), '<<<<<<< HEAD', lines[3], '=======', lines[4], '>>>>>>> feature', ...lines.slice(5)].join('\n'));
      const conflict = await runCli(['check', copy.dir]);
      expect([conflict.code, conflict.stdout, conflict.stderr]).toEqual([
        2,
        '',
        `trajaudit: ${file}:4:1: baseline has unresolved merge conflicts; resolve them (keep the entries of both sides), or delete it and regenerate it with --update-baseline --allow-additions\n`,
      ]);
    } finally {
      copy.cleanup();
    }
  });

  it('a file as the root', async () => {
    const run = await runCli(['check', 'fixtures/check-call-forms/src/agent/loose.ts']);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', 'trajaudit: check root is not a directory: fixtures/check-call-forms/src/agent/loose.ts\n']);
  });

  it('--allow-additions without --update-baseline', async () => {
    const run = await runCli(['check', 'fixtures/check-baseline', '--allow-additions']);
    expect([run.code, run.stderr]).toEqual([2, 'trajaudit: --allow-additions only makes sense with --update-baseline\n']);
  });
});
