import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { SCHEMA } from '../../src/formats/registry.js';
import { InternalError, UsageError } from '../../src/errors.js';
import { loadQueries, parseQuery, QUERIES_DIR } from '../../src/queries/load-queries.js';
import { runQuery } from '../../src/queries/run-query.js';
import { FIXTURES, runCli } from '../helpers/run-cli.js';
import { HOME, homeDb, queryRows, tasksDir } from '../queries/query-cli.js';

const row = (type: string, events: number, main_loop: number, subagent: number, sessions: number, agents: number) =>
  ({ type, events, main_loop, subagent, sessions, agents });

// RetryTelemetry of week B (2026-08-17 … 2026-08-23): S4 and S5 (EXPECTED.md §4).
const WEEK_B = [
  row('stream_completed', 14, 4, 10, 2, 5),
  row('retry', 5, 1, 4, 1, 3),
  row('shared_cooldown_wait', 4, 0, 4, 1, 4),
  row('stream_stall', 2, 0, 2, 1, 1),
  row('cooldown_probe', 1, 0, 1, 1, 1),
  row('cooldown_probe_denied', 1, 0, 1, 1, 1),
  row('fallback', 1, 0, 1, 1, 1),
  row('retry_budget_exhausted', 1, 0, 1, 1, 1),
  row('stream_idle_timeout', 1, 1, 0, 1, 0),
];

describe('trajaudit query: usage errors exit 2 with one line', () => {
  it('an unknown query lists the canned ones', async () => {
    const names = loadQueries().map((q) => q.name).join(', ');
    expect(await runCli(['query', 'retry-count', HOME])).toEqual({
      code: 2, stdout: '', stderr: `trajaudit: unknown query "retry-count"; the canned queries are: ${names}\n`,
    });
    expect(await runCli(['query', 'retry-by-agnet', HOME])).toEqual({
      code: 2, stdout: '', stderr: `trajaudit: unknown query "retry-by-agnet"; did you mean "retry-by-agent"? the canned queries are: ${names}\n`,
    });
  });

  it('a --param the query does not declare, checked before any input is read', async () => {
    expect(await runCli(['query', 'retry-telemetry', 'no/such/home', '--param', 'agent=x'])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: --param agent=x: query retry-telemetry has no parameter agent (its parameters: since, until, session)\n',
    });
  });

  it('a --param key given twice, even with the same value, and a mistyped key get one line each', async () => {
    const query = ['query', 'silent-subagent-failures', HOME];
    expect(await runCli([...query, '--param', 'max_gap_ms=1', '--param', 'max_gap_ms=2'])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: --param max_gap_ms is given twice (--param max_gap_ms=1, --param max_gap_ms=2); give it once\n',
    });
    expect((await runCli([...query, '--param', 'max_gap_ms=1', '--param', 'max_gap_ms=1'])).code).toBe(2);
    expect((await runCli([...query, '--param', 'max_gap=1'])).stderr).toMatch(/has no parameter max_gap \(did you mean "max_gap_ms"\? its parameters: /);
  });

  it('a --param that is not key=value', async () => {
    expect(await runCli(['query', 'retry-telemetry', HOME, '--param', 'since'])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: --param "since" is not key=value\n',
    });
  });

  it('a --param value of the wrong type', async () => {
    expect(await runCli(['query', 'retry-telemetry', HOME, '--param', 'since=yesterday'])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: --param since "yesterday" is not a time: use an ISO date or time (2026-08-17, 2026-08-17T10:00:00Z) or a span back from now (7d, 24h, 30m)\n',
    });
  });

  it.each(['99999999999999999999', '9007199254740993'])('a whole number past 2^53 (%s) exits 2 instead of failing or rounding', async (value) => {
    expect(await runCli(['query', 'silent-subagent-failures', HOME, '--param', `max_gap_ms=${value}`])).toEqual({
      code: 2, stdout: '', stderr: `trajaudit: --param max_gap_ms=${value}: max_gap_ms takes a whole number from -9007199254740991 to 9007199254740991, got "${value}"\n`,
    });
  });

  it('--session on a query that has no session parameter', async () => {
    expect(await runCli(['query', 'test-pollution', HOME, '--session', '4f7a9c2e'])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: --session: query test-pollution cannot be filtered by session\n',
    });
  });

  it('an ambiguous --session lists the candidates', async () => {
    const run = await runCli(['query', 'retry-telemetry', HOME, '--session', '2026081']);
    expect(run).toEqual({
      code: 2, stdout: '',
      stderr: `trajaudit: session "2026081" is ambiguous; it matches:\n  20260812-142207-8d3e61f0\n  20260814-093015-c7a2e5f1\n  20260819-183103-4f7a9c2e\npass more of the id\n`,
    });
  });
});

describe('trajaudit query: --since, --until, --session', () => {
  it('ISO dates: --since inclusive, --until exclusive (week B)', async () => {
    expect((await queryRows('retry-telemetry', [...(await homeDb()), '--since', '2026-08-17', '--until', '2026-08-24'])).rows).toEqual(WEEK_B);
  });

  it('a relative --since (hours back from now) gives the same rows', async () => {
    const hours = Math.ceil((Date.now() - Date.parse('2026-08-16T00:00:00Z')) / 3_600_000);
    expect((await queryRows('retry-telemetry', [...(await homeDb()), '--since', `${hours}h`])).rows).toEqual(WEEK_B);
  });

  it('a relative --since counts back from --until, as in report', async () => {
    expect((await queryRows('retry-telemetry', [...(await homeDb()), '--since', '7d', '--until', '2026-08-24'])).rows).toEqual(WEEK_B);
  });

  it('bounds keep their microseconds: a row at .882 ms is before --since .8825', async () => {
    const at = async (since: string) => (await queryRows('retry-telemetry', [...(await homeDb()), '--since', since, '--until', '2026-08-12T06:22:35.883Z'])).rows;
    expect(await at('2026-08-12T06:22:35.882Z')).toEqual([row('stream_completed', 1, 1, 0, 1, 0)]);
    expect(await at('2026-08-12T06:22:35.8825Z')).toEqual([]);
  });

  it('a day that does not exist exits 2 instead of rolling over', async () => {
    expect(await runCli(['query', 'retry-telemetry', HOME, '--since', '2026-02-30'])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: --since "2026-02-30" is not a time: use an ISO date or time (2026-08-17, 2026-08-17T10:00:00Z) or a span back from now (7d, 24h, 30m)\n',
    });
  });

  it('--param since=/until= are read as --since/--until are', async () => {
    expect((await queryRows('retry-telemetry', [...(await homeDb()), '--param', 'since=7d', '--param', 'until=2026-08-24'])).rows).toEqual(WEEK_B);
    expect((await queryRows('retry-telemetry', [...(await homeDb()), '--param', "since='2026-08-17'", '--until', '2026-08-24'])).rows).toEqual(WEEK_B);
    expect((await runCli(['query', 'retry-telemetry', HOME, '--param', 'since=2026-08-24', '--param', 'until=2026-08-17'])).code).toBe(2);
  });

  it('a window that would be empty exits 2', async () => {
    expect(await runCli(['query', 'retry-telemetry', HOME, '--since', '2026-08-24', '--until', '2026-08-17'])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: --since 2026-08-24T00:00:00.000Z is not before --until 2026-08-17T00:00:00.000Z; the window would be empty\n',
    });
  });

  it('an empty --session exits 2 instead of meaning every session', async () => {
    expect(await runCli(['query', 'retry-telemetry', HOME, '--session', ''])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: the session id is empty; pass a full session id, a unique prefix or the 8-hex suffix\n',
    });
  });

  it('--param session= resolves a suffix as --session does', async () => {
    expect((await queryRows('retry-by-agent', [...(await homeDb()), '--param', 'session=4f7a9c2e'])).rows).toEqual((await queryRows('retry-by-agent', [...(await homeDb()), '--session', '4f7a9c2e'])).rows);
    expect((await runCli(['query', 'retry-by-agent', HOME, '--param', 'session=4f7a9c2e', '--session', '4f7a9c2e'])).stderr).toBe('trajaudit: give session once: --session X or --param session=X\n');
  });

  it('--session by the 8-hex suffix equals the full id', async () => {
    const bySuffix = (await queryRows('retry-by-agent', [...(await homeDb()), '--session', '4f7a9c2e'])).rows;
    const byId = (await queryRows('retry-by-agent', [...(await homeDb()), '--session', '20260819-183103-4f7a9c2e'])).rows;
    expect(bySuffix).toEqual(byId);
    expect(bySuffix.map((r) => r.agent_id)).toEqual([
      'subagent-plan-ac5e1u4i6', 'subagent-explore-a3f9k2m7p', 'subagent-task-ab4r7t2y9',
      'subagent-explore-a8q1w5n0c', 'subagent-task-a0z6h3j8d', 'subagent-verify-a2g7l9s4v',
    ]);
  });
});

describe('trajaudit query --format json', () => {
  const made = tasksDir(path.join(FIXTURES, 'queries-test-pollution', 'tasks'), {
    'a1t1t1t1t.output': '2026-08-01T00:00:00.000Z',
    'a4r4r4r4r.output': '2026-08-05T06:07:08.000Z',
  });
  afterAll(made.cleanup);

  it('numbers are JSON numbers and times ISO-8601 UTC, whatever TZ says', async () => {
    const run = await runCli(['query', 'test-pollution', made.dir, '--format', 'json'], { env: { TZ: 'Asia/Shanghai' } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([
      { category: 'test', files: 1, bytes: 24, share: 0.5, oldest_mtime: '2026-08-01T00:00:00.000Z', newest_mtime: '2026-08-01T00:00:00.000Z' },
      { category: 'empty', files: 0, bytes: 0, share: 0, oldest_mtime: null, newest_mtime: null },
      { category: 'real', files: 1, bytes: 27, share: 0.5, oldest_mtime: '2026-08-05T06:07:08.000Z', newest_mtime: '2026-08-05T06:07:08.000Z' },
    ]);
    expect(run.stdout).toContain('"files": 1,');
    expect(run.stdout).toContain('"share": 0.5,');
  });
});

// DuckDB's hints stay under the line, as for sql; its LINE numbers are lines of the query's file.
describe('a canned query DuckDB refuses keeps DuckDB\'s hints', () => {
  const header = '-- name: broken\n-- description: a query that fails.\n-- columns: n\n';
  const failure = async (sql: string, params: Record<string, string>) => {
    const query = parseQuery(path.join(QUERIES_DIR, 'broken.sql'), `${header}${sql}`);
    const db = await openDatabase(SCHEMA);
    try {
      await runQuery(db, query, params);
    } catch (error) {
      return error;
    } finally {
      db.close();
    }
    throw new Error('the query ran');
  };

  it('a value DuckDB cannot take: a usage error, with the line of the file and the caret', async () => {
    const error = await failure('-- param: v VARCHAR = NULL\nSELECT CAST($v AS INTEGER) AS n', { v: 'x' });
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      "query broken cannot run with these parameter values: Conversion Error: Could not convert string 'x' to INT32; check --param and trajaudit.config.json\n" +
      '  LINE 5: SELECT CAST($v AS INTEGER) AS n\n' +
      '                 ^',
    );
  });

  it('a mistake in the query: an internal error naming its file, with the candidate bindings', async () => {
    const error = await failure('SELECT nn FROM (SELECT 1 AS n)', {});
    expect(error).toBeInstanceOf(InternalError);
    expect((error as Error).message).toBe(
      'query broken (queries/broken.sql) failed: Binder Error: Referenced column "nn" not found in FROM clause!\n' +
      '  Candidate bindings: "n"\n' +
      '  LINE 4: SELECT nn FROM (SELECT 1 AS n)\n' +
      '                 ^',
    );
  });
});
