import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixtureDb, runCli, tempDir } from '../helpers/run-cli.js';

// sql only reads: a --db is trajaudit's ledger of what it loaded (a row deleted there would never
// be loaded again), and nothing may be written inside the input tree.
const home = path.join(FIXTURES, 'home');
const notQuery = (kind: string, hint = '') =>
  `trajaudit: sql runs queries only (SELECT, or EXPLAIN of one), not ${kind}${hint}: it never changes the database or writes files; to save a result, redirect --format csv or json to a file\n`;
// The notice of unreadable lines comes with a load, once: over a --db as it is, or with --quiet, none.
const unread = '';
const functionHint = " (write SELECT * FROM the function instead, e.g. SELECT * FROM pragma_table_info('events'))";

describe('sql runs queries only', () => {
  let dir: string;
  let cleanup: () => void;
  let db: string;
  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    db = path.join(dir, 'audit.duckdb');
    expect((await runCli(['load', home, '--db', db, '--quiet'])).code).toBe(0);
  });
  afterAll(() => cleanup());
  const events = async () => (await runCli(['sql', 'SELECT count(*) AS n FROM events', '--db', db, '--format', 'csv'])).stdout;

  it('a statement that writes is refused before it runs, with paths and a --db too; the database keeps its rows', async () => {
    expect(await events()).toBe('n\r\n413\r\n');
    const copy = path.join(dir, 'out.csv');
    const exported = path.join(dir, 'export');
    for (const [statement, kind] of [
      ['DELETE FROM events', 'DELETE'],
      ['  /* c */ drop view sessions', 'DROP'],
      ['WITH x AS (SELECT 1) DELETE FROM events', 'DELETE'],
      ['EXPLAIN ANALYZE WITH x AS (SELECT 1) DELETE FROM events', 'DELETE'],
      [`COPY events TO '${copy}'`, 'COPY'],
      [`EXPORT DATABASE '${exported}'`, 'EXPORT'],
      [`ATTACH '${path.join(dir, 'other.duckdb')}'`, 'ATTACH'],
    ]) {
      expect(await runCli(['sql', statement, home, '--db', db, '--quiet'])).toEqual({ code: 2, stdout: '', stderr: notQuery(kind) });
    }
    expect(await runCli(['sql', 'CALL duckdb_settings()', home, '--quiet'])).toEqual({ code: 2, stdout: '', stderr: notQuery('CALL', functionHint) });
    expect(await runCli(['sql', 'PRAGMA version', home, '--quiet'])).toEqual({ code: 2, stdout: '', stderr: notQuery('PRAGMA', functionHint) });
    expect(fs.readdirSync(dir).sort()).toEqual(['audit.duckdb']);
    expect(await events()).toBe('n\r\n413\r\n');
    expect((await runCli(['sql', 'SELECT count(*) AS n FROM sessions', '--db', db, '--format', 'csv'])).stdout).toBe('n\r\n5\r\n');
  });

  it('queries in any form run: FROM first, SHOW, EXPLAIN and EXPLAIN ANALYZE of a query', async () => {
    expect(await runCli(['sql', 'FROM events SELECT count(*) AS n', '--db', db, '--format', 'csv'])).toEqual({ code: 0, stdout: 'n\r\n413\r\n', stderr: unread });
    expect((await runCli(['sql', 'SHOW TABLES', '--db', db, '--format', 'csv'])).stdout).toContain('\r\nevents\r\n');
    for (const statement of ['EXPLAIN SELECT 1', 'explain analyze select count(*) from events', 'EXPLAIN (FORMAT json) SELECT 1']) {
      const run = await runCli(['sql', statement, '--db', db, '--format', 'json']);
      expect([run.code, run.stderr]).toEqual([0, unread]);
      expect(Object.keys((JSON.parse(run.stdout) as object[])[0])).toEqual(['explain_key', 'explain_value']);
    }
  });

  it('PIVOT and UNPIVOT run, with or without an IN list, and leave the --db file as it was', async () => {
    const before = fs.readFileSync(db);
    const mtime = fs.statSync(db).mtimeMs;
    const csv = (statement: string) => runCli(['sql', statement, '--db', db, '--format', 'csv']);
    const counts = 'session_id,head,old,unknown\r\n20260812-142207-8d3e61f0,0,1,0\r\n';
    // Without an IN list DuckDB first makes a temporary ENUM of the values found (a second statement of its own).
    for (const statement of [
      "PIVOT (SELECT session_id, generation FROM sessions) ON generation IN ('head', 'old', 'unknown') USING count(*) ORDER BY 1 LIMIT 1",
      "pivot (SELECT session_id, generation FROM sessions UNION ALL SELECT NULL, 'unknown') ON generation USING count(*) ORDER BY 1 NULLS LAST LIMIT 1",
      "PIVOT_WIDER (SELECT session_id, generation FROM sessions UNION ALL SELECT NULL, 'unknown') ON generation USING count(*) ORDER BY 1 LIMIT 1",
      "WITH p AS (PIVOT (SELECT session_id, generation FROM sessions UNION ALL SELECT NULL, 'unknown') ON generation USING count(*)) SELECT * FROM p ORDER BY 1 LIMIT 1",
    ]) {
      expect(await csv(statement)).toEqual({ code: 0, stdout: counts, stderr: unread });
    }
    expect((await csv('SELECT * FROM (PIVOT sessions ON generation USING count(*) GROUP BY has_session_end) a JOIN (PIVOT sessions ON has_session_start USING count(*) GROUP BY has_session_end) b USING (has_session_end) ORDER BY 1')).stdout)
      .toBe('has_session_end,head,old,true\r\nfalse,1,0,1\r\ntrue,2,2,4\r\n');
    expect((await csv('UNPIVOT (SELECT 1 AS a, 2 AS b) ON a, b INTO NAME k VALUE v')).stdout).toBe('k,v\r\na,1\r\nb,2\r\n');
    expect((await csv('PIVOT_LONGER (SELECT 1 AS a, 2 AS b) ON COLUMNS(*)')).stdout).toBe('name,value\r\na,1\r\nb,2\r\n');
    expect((await csv('DESCRIBE PIVOT sessions ON generation USING count(*)')).stdout).toContain('\r\nold,BIGINT,');
    for (const statement of ['EXPLAIN PIVOT sessions ON generation USING count(*)', 'EXPLAIN ANALYZE PIVOT sessions ON generation USING count(*)']) {
      const run = await runCli(['sql', statement, '--db', db, '--format', 'json']);
      expect([run.code, run.stderr]).toEqual([0, unread]);
      expect(Object.keys((JSON.parse(run.stdout) as object[])[0])).toEqual(['explain_key', 'explain_value']);
    }
    expect(fs.readFileSync(db).equals(before)).toBe(true);
    expect(fs.statSync(db).mtimeMs).toBe(mtime);
  });

  it('a PIVOT does not carry a write or a second statement past the check', async () => {
    const several = 'trajaudit: the SQL text holds more than one statement; sql runs one at a time (one output), so pass them one by one\n';
    for (const statement of ['WITH p AS (PIVOT sessions ON generation USING count(*)) DELETE FROM events', 'EXPLAIN ANALYZE WITH p AS (PIVOT sessions ON generation USING count(*)) DELETE FROM events']) {
      expect(await runCli(['sql', statement, home, '--db', db, '--quiet'])).toEqual({ code: 2, stdout: '', stderr: notQuery('DELETE') });
    }
    for (const statement of ['PIVOT sessions ON generation USING count(*); DELETE FROM events', 'PIVOT sessions ON generation USING count(*); CREATE TABLE t AS SELECT 1; SELECT 1']) {
      expect(await runCli(['sql', statement, home, '--db', db, '--quiet'])).toEqual({ code: 2, stdout: '', stderr: several });
    }
    expect(await runCli(['sql', "PIVOT sessions ON generation IN ('head') USING count(*); DELETE FROM events", home, '--db', db, '--quiet'])).toEqual({
      code: 2, stdout: '', stderr: 'trajaudit: the SQL text holds 2 statements; sql runs one at a time (one output), so pass them one by one\n',
    });
    expect(await events()).toBe('n\r\n413\r\n');
    expect((await runCli(['sql', "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 't'", '--db', db, '--format', 'csv'])).stdout).toBe('n\r\n0\r\n');
  });

  it('text that holds no statement says so', async () => {
    for (const statement of [';', '/* only a comment */', ' ; ; ']) {
      expect(await runCli(['sql', statement, '--db', db])).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: the SQL text holds no statement; pass one, e.g. trajaudit sql "SELECT count(*) FROM events"\n' });
    }
  });
});

describe('sql: a result with two columns of one name', () => {
  it('shows the later one under a new name in every format, and says so', async () => {
    const warning = 'trajaudit: a second column named a is shown as a_2; name the columns with AS to choose\n';
    const json = await runCli(['sql', 'SELECT 1 AS a, 2 AS a, 3 AS a_1', home, '--format', 'json', '--quiet']);
    expect(json).toEqual({ code: 0, stdout: '[\n  {\n    "a": 1,\n    "a_2": 2,\n    "a_1": 3\n  }\n]\n', stderr: unread + warning });
    expect((await runCli(['sql', 'SELECT 1 AS a, 2 AS a, 3 AS a_1', home, '--format', 'csv', '--quiet'])).stdout).toBe('a,a_2,a_1\r\n1,2,3\r\n');
    const join = await runCli(['sql', 'SELECT s.session_id, s.events, d.session_id FROM sessions s JOIN session_dirs d USING (session_id) ORDER BY 1 LIMIT 1', home, '--format', 'csv', '--quiet']);
    expect(join.stdout).toBe('session_id,events,session_id_1\r\n20260812-142207-8d3e61f0,83,20260812-142207-8d3e61f0\r\n');
  });

  it('a column named __proto__ is a column like any other', async () => {
    const run = await runCli(['sql', 'SELECT 1 AS "__proto__", 2 AS "constructor"', home, '--format', 'json', '--quiet']);
    expect(run.stdout).toBe('[\n  {\n    "__proto__": 1,\n    "constructor": 2\n  }\n]\n');
  });
});

// @duckdb/node-api hands a struct over as an object keyed by field name: the fields of an unnamed
// struct (row(1, 'a'): all named "") overwrote each other, and `{"": "a"}` was printed for (1, a).
describe('sql: a struct whose fields share a name', () => {
  it('is refused in one line that says how to name the fields, anywhere in a result', async () => {
    const refused = (column: string, type: string) => ({
      code: 2,
      stdout: '',
      stderr: `trajaudit: result column "${column}" holds a struct whose fields share a name (${type}, as row(…) makes): each would overwrite the other in the output; name the fields, e.g. {'a': 1, 'b': 'x'} or struct_pack(a := 1, b := 'x')\n`,
    });
    expect(await runCli(['sql', "SELECT row(1, 'a') AS r", home, '--format', 'json', '--quiet'])).toEqual(refused('r', 'STRUCT("" INTEGER, "" VARCHAR)'));
    expect(await runCli(['sql', "SELECT 1 AS n, [row(1, 'a')] AS l", home, '--quiet'])).toEqual(refused('l', 'STRUCT("" INTEGER, "" VARCHAR)'));
    expect(await runCli(['sql', "SELECT MAP {'k': {'x': row(1, 2)}} AS m", home, '--format', 'csv', '--quiet'])).toEqual(refused('m', 'STRUCT("" INTEGER, "" INTEGER)'));
  });

  it('named fields, and one unnamed field, are shown whole', async () => {
    const run = await runCli(['sql', "SELECT {'x': 1, 'y': 'b'} AS s, row(5) AS one", home, '--format', 'json', '--quiet']);
    expect(run).toEqual({ code: 0, stdout: '[\n  {\n    "s": {\n      "x": 1,\n      "y": "b"\n    },\n    "one": {\n      "": 5\n    }\n  }\n]\n', stderr: unread });
  });
});

// DuckDB says more than its first line: which table was meant, the columns there are, where in the
// SQL. That stays, indented under trajaudit's own line, which still says what to do.
describe("sql: a statement DuckDB refuses keeps DuckDB's hints", () => {
  const failed = (summary: string, ...hints: string[]) => ({
    code: 2,
    stdout: '',
    stderr: `trajaudit: the SQL statement failed: ${summary} (tables and views are listed in docs/tables.md, or run: trajaudit sql "SHOW TABLES")\n${hints.map((line) => `  ${line}\n`).join('')}`,
  });
  const sql = async (statement: string) => runCli(['sql', statement, ...(await fixtureDb('home'))]);

  it('a misspelled table: did you mean, and the caret under it', async () => {
    expect(await sql('SELECT * FROM event')).toEqual(failed(
      'Catalog Error: Table with name event does not exist!',
      'Did you mean "events"?',
      'LINE 1: SELECT * FROM event',
      '                      ^',
    ));
  });

  it('a misspelled column: the candidate bindings', async () => {
    expect(await sql('SELECT sesion_id FROM events')).toEqual(failed(
      'Binder Error: Referenced column "sesion_id" not found in FROM clause!',
      'Candidate bindings: "session_id", "file_id", "agent_id", "envelope_session_id", "line"',
      'LINE 1: SELECT sesion_id FROM events',
      '               ^',
    ));
  });

  it('a syntax error: the line it is on and the caret, also after an EXPLAIN on a line of its own', async () => {
    expect(await sql('SELECT session_id, count(*) AS n\nFROM events\nGROUP BY session_id ORDR BY n')).toEqual(failed(
      'Parser Error: syntax error at or near "ORDR"',
      'LINE 3: GROUP BY session_id ORDR BY n',
      '                            ^',
    ));
    expect(await sql('SELEC 1')).toEqual(failed('Parser Error: syntax error at or near "SELEC"', 'LINE 1: SELEC 1', '        ^'));
    expect(await sql('EXPLAIN\nSELECT *\nFROM event')).toEqual(failed(
      'Catalog Error: Table with name event does not exist!',
      'Did you mean "events"?',
      'LINE 3: FROM event',
      '             ^',
    ));
  });

  it('control characters of the SQL are shown as escapes, the caret still under its place', async () => {
    expect(await sql("SELECT 'a\x1b]0;x\x07' AS t FROM evnts")).toEqual(failed(
      'Catalog Error: Table with name evnts does not exist!',
      'Did you mean "events"?',
      "LINE 1: SELECT 'a\\u001b]0;x\\u0007' AS t FROM evnts",
      '                                             ^',
    ));
  });

  it("a missing extension: that trajaudit loads none, not DuckDB's advice to install it", async () => {
    const run = await sql("SELECT * FROM read_csv('s3://bucket/x.csv')");
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: "trajaudit: the SQL statement failed: Missing Extension Error: File s3://bucket/x.csv requires the extension httpfs to be loaded (trajaudit loads no DuckDB extension: read local files, with DuckDB's built-in functions; docs/cli.md#sql)\n  LINE 1: SELECT * FROM read_csv('s3://bucket/x.csv')\n                        ^\n",
    });
  });
});
