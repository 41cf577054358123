// The notice of lines that could not be read comes with the load that read them, once: a command
// over a --db as it is does not repeat it, and --quiet silences it. Warnings that change what an
// answer means (inputs unread, a load that did not finish) are not notices and stay.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

const { dir, cleanup } = tempDir('trajaudit-notices-');
afterAll(cleanup);

const MALFORMED = path.join(FIXTURES, 'malformed-lines');
const NOTICE = 'trajaudit: 6 lines in 1 file could not be read; they are listed by `trajaudit sources`\n';

describe('the unreadable-lines notice', () => {
  it('is said by the load, not by later commands over the --db; --quiet silences it; sources --strict still says it', async () => {
    const db = path.join(dir, 'm.duckdb');
    expect((await runCli(['load', MALFORMED, '--db', db])).stderr).toBe(NOTICE);
    expect((await runCli(['load', MALFORMED, '--db', db, '--quiet'])).stderr).toBe('');
    expect((await runCli(['query', 'retry-telemetry', '--db', db])).stderr).toBe('');
    expect((await runCli(['sql', 'SELECT 1', '--db', db])).stderr).toBe('');
    // Over paths every command loads them: said, unless --quiet.
    expect((await runCli(['query', 'retry-telemetry', MALFORMED])).stderr).toBe(NOTICE);
    expect((await runCli(['query', 'retry-telemetry', MALFORMED, '--quiet'])).stderr).toBe('');
    const strict = await runCli(['sources', '--db', db, '--strict', '--section', 'totals']);
    expect([strict.code, strict.stderr]).toEqual([1, 'trajaudit: 6 lines in 1 file could not be read; add `--section problems` to list them\n']);
  });
});
