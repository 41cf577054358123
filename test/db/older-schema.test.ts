// A query over --db as it is, over a database another trajaudit version wrote (issue 2, audit B5):
// it reads the file through this version's views, made on its own connection, and never writes
// it; so other queries share it meanwhile and a read-only file can be queried. It used to reopen
// the file read-write to renew its views: "busy" beside another query, "permission denied" on a
// read-only file, and the user's database rewritten just to be read.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editDatabase } from '../helpers/edit-database.js';
import { CLI, FIXTURES, REPO, runCli, runJson, tempDir } from '../helpers/run-cli.js';

const work = tempDir();
const current = path.join(work.dir, 'current.duckdb');
const NOBODY = 65534;

beforeAll(async () => {
  const load = await runCli(['load', path.join(FIXTURES, 'home'), '--db', current, '--quiet']);
  expect(load.code).toBe(0);
});
afterAll(() => work.cleanup());

/**
 * A copy of a database of this version, as an older trajaudit left it: another schema_version,
 * views of its own (subagent_runs not yet there, a sessions view that differs) and session_dirs
 * without its key column (added by commit c50b71c), without the JSON number macros, and without
 * event_fields (the payload fields typed at load: views parsed `data` on every query before).
 */
function olderCopy(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(current, file);
  editDatabase(file, [
    "UPDATE trajaudit_meta SET value = 'older' WHERE key = 'schema_version'",
    'DROP VIEW subagent_runs',
    "CREATE OR REPLACE VIEW sessions AS SELECT session_id, path, 'stale' AS generation FROM session_dirs",
    'ALTER TABLE session_dirs DROP COLUMN key',
    // The JSON number macros came later too (the discarded-output query calls json_integer).
    'DROP MACRO json_integer',
    'DROP MACRO json_double',
    'DROP TABLE event_fields',
  ]);
  return file;
}

const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

// Answers that read the renewed views: sessions (changed), subagent_runs (missing in the file).
const SESSIONS = ['sql', 'SELECT session_id, generation, events FROM sessions ORDER BY session_id'];
const STARTS = ['query', 'subagent-starts'];
const TIMELINE = ['timeline', '20260819-183103-4f7a9c2e'];
const DISCARDED = ['query', 'discarded-output'];
const SMALL_FAMILIES = ['sql', 'SELECT * FROM retry_and_subagent_fields ORDER BY file_id, line'];
const answer = async (args: string[], db: string) => {
  const { value, run } = await runJson([...args, '--db', db]);
  expect(run.code).toBe(0);
  return value;
};
/** The answer over the database of this version (asked once). */
const expected = (() => {
  const answers = new Map<string[], unknown>();
  return async (args: string[]) => {
    if (!answers.has(args)) answers.set(args, await answer(args, current));
    return answers.get(args);
  };
})();

/** The CLI, spawned without waiting: for queries that run at the same time. */
function startCli(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: '1', TZ: 'UTC' } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
}

describe('a query over --db written by another trajaudit version', () => {
  it("reads it through this version's views and tables, and leaves the file as it was", async () => {
    const older = olderCopy(path.join(work.dir, 'as-is', 'older.duckdb'));
    const before = digest(older);
    for (const args of [SESSIONS, STARTS, TIMELINE, DISCARDED]) expect(await answer(args, older)).toEqual(await expected(args));
    // session_dirs.key did not exist yet: NULL, as a load adding the column leaves the old rows.
    expect(await answer(['sql', 'SELECT count(*) AS dirs, count(key) AS keys FROM session_dirs'], older)).toEqual([{ dirs: 5, keys: 0 }]);
    expect(await answer(['sql', `SELECT value FROM trajaudit_meta WHERE key = 'schema_version'`], older)).toEqual([{ value: 'older' }]);
    expect(digest(older)).toBe(before);
    expect(fs.readdirSync(path.dirname(older))).toEqual(['older.duckdb']);
  });

  it('gives the same report, whose reused views (TEMP tables) replace the TEMP views made for it', async () => {
    const older = olderCopy(path.join(work.dir, 'report', 'older.duckdb'));
    const report = async (db: string) => {
      const { inputs, ...rest } = (await answer(['report', '--since', '2026-08-17', '--until', '2026-08-24'], db)) as { inputs: string[] };
      expect(inputs).toEqual([`database ${db}`]);
      return rest;
    };
    const answered = await report(older);
    expect(JSON.stringify(answered)).toMatch(/"silent_failure":1/);
    expect(answered).toEqual(await report(current));
  });

  it('gets event_fields from the next load, computed from its stored events, the same rows as a new load', async () => {
    const older = olderCopy(path.join(work.dir, 'upgraded', 'older.duckdb'));
    expect((await runCli(['load', path.join(FIXTURES, 'home'), '--db', older, '--quiet'])).code).toBe(0);
    const rows = ['sql', 'SELECT * FROM event_fields ORDER BY file_id, line'];
    const upgraded = await answer(rows, older);
    expect(upgraded).toEqual(await expected(rows));
    expect((upgraded as unknown[]).length).toBeGreaterThan(50);
    for (const args of [SESSIONS, STARTS, DISCARDED]) expect(await answer(args, older)).toEqual(await expected(args));
  });

  // event_fields as the version before its envelope columns (ts, type, phase, idx, agent_id) left it.
  const envelopeless = (file: string) => {
    olderCopy(file);
    editDatabase(file, [
      'CREATE TABLE event_fields AS SELECT * FROM events WHERE false',
      ...['ts', 'type', 'phase', 'idx', 'agent_id', 'cwd', 'envelope_session_id', 'data', 'ts_unread'].map((c) => `ALTER TABLE event_fields DROP COLUMN ${c}`),
      'ALTER TABLE event_fields ADD COLUMN attempt BIGINT',
      'INSERT INTO event_fields (file_id, session_id, line, event) SELECT file_id, session_id, line, event FROM events WHERE event = \'SubagentStart\'',
    ]);
    return file;
  };

  it('reads event_fields of an older shape as computed from its stored events, and the next load makes it again', async () => {
    const older = envelopeless(path.join(work.dir, 'envelope', 'older.duckdb'));
    const columns = ['sql', `SELECT column_name FROM duckdb_columns() WHERE table_name = 'event_fields' AND database_name <> 'temp' ORDER BY column_index`];
    expect((await answer(columns, older) as { column_name: string }[]).map((c) => c.column_name)).toEqual(['file_id', 'session_id', 'line', 'event', 'attempt']);
    for (const args of [STARTS, DISCARDED, ['query', 'snapshot-attribution'], ['query', 'retry-by-agent']]) expect(await answer(args, older)).toEqual(await expected(args));
    expect((await runCli(['load', path.join(FIXTURES, 'home'), '--db', older, '--quiet'])).code).toBe(0);
    const rows = ['sql', 'SELECT * FROM event_fields ORDER BY file_id, line'];
    const upgraded = await answer(rows, older);
    expect(upgraded).toEqual(await expected(rows));
    expect((upgraded as unknown[]).length).toBeGreaterThan(50);
    expect(await answer(SMALL_FAMILIES, older)).toEqual(await expected(SMALL_FAMILIES));
  });

  it('reads retry_and_subagent_fields, missing in a file of the version before it, from its event_fields; the next load stores it', async () => {
    const older = olderCopy(path.join(work.dir, 'small', 'older.duckdb'));
    // olderCopy dropped event_fields: the version before had it, as a load of this one makes it.
    expect((await runCli(['load', path.join(FIXTURES, 'home'), '--db', older, '--quiet'])).code).toBe(0);
    editDatabase(older, ["UPDATE trajaudit_meta SET value = 'older' WHERE key = 'schema_version'", 'DROP VIEW retry_telemetry', 'DROP VIEW retry_telemetry_fields',
      'DROP VIEW subagent_lifecycle', 'DROP VIEW subagent_lifecycle_fields', 'DROP VIEW agent_runs', 'DROP VIEW api_attempts', 'DROP VIEW subagent_runs', 'DROP TABLE retry_and_subagent_fields']);
    const before = digest(older);
    for (const args of [SMALL_FAMILIES, STARTS, ['query', 'retry-by-agent'], ['query', 'cooldown-herd']]) expect(await answer(args, older)).toEqual(await expected(args));
    expect(digest(older)).toBe(before);
    expect((await runCli(['load', path.join(FIXTURES, 'home'), '--db', older, '--quiet'])).code).toBe(0);
    const stored = ['sql', `SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'retry_and_subagent_fields'`];
    expect(await answer(stored, older)).toEqual([{ n: 1 }]);
    expect(await answer(SMALL_FAMILIES, older)).toEqual(await expected(SMALL_FAMILIES));
  });

  it.each([
    ['stream_evidence_fields', 'SELECT event, count(*) AS n, count(agent_id) AS tagged FROM stream_evidence_fields GROUP BY ALL ORDER BY event', 2],
    ['untagged_stream_fields', 'SELECT idx >= 10000 AS own_index, count(*) AS n, sum(chunk_count) AS chunks FROM untagged_stream_fields GROUP BY ALL ORDER BY 1', 2],
    ['subagent_run_rows', 'SELECT stop_ts IS NULL AS never_stopped, count(*) AS n, max(stop_line) AS last FROM subagent_run_rows GROUP BY ALL ORDER BY 1', 2],
    ['subagent_stream_rows', 'SELECT cut_off, count(*) AS n, sum(tagged_rows) AS tagged, max(last_ts) AS last FROM subagent_stream_rows GROUP BY ALL ORDER BY 1', 2],
    ['subagent_task_rows', 'SELECT agent_id IS NULL AS no_start, stop_status, count(*) AS n, max(agent_type) AS agent_type FROM subagent_task_rows GROUP BY ALL ORDER BY ALL', 3],
    ['cooldown_wake_rows', 'SELECT type, count(*) AS n, count(wake_ts) AS known, list_sort(list(DISTINCT agent)) AS agents FROM cooldown_wake_rows GROUP BY ALL ORDER BY 1', 4],
    ['ghost_stream_rows', 'SELECT event, idx < 10000 AS main, count(*) AS n, count(placed_ts) AS placed, max(placed_ts) AS last FROM ghost_stream_rows GROUP BY ALL ORDER BY ALL', 3],
  ])('reads %s, missing in a file of the version before it, from its event_fields; the next load stores it', async (table, probe, groups) => {
    const older = olderCopy(path.join(work.dir, table, 'older.duckdb'));
    expect((await runCli(['load', path.join(FIXTURES, 'home'), '--db', older, '--quiet'])).code).toBe(0);
    editDatabase(older, ["UPDATE trajaudit_meta SET value = 'older' WHERE key = 'schema_version'", `DROP TABLE ${table}`]);
    const before = digest(older);
    const rows = ['sql', probe];
    expect(((await expected(rows)) as { n: number }[]).length).toBe(groups);
    for (const args of [rows, ['query', 'snapshot-attribution'], ['query', 'silent-subagent-failures'], ['query', 'cooldown-herd'], ['query', 'retry-by-agent'], ['query', 'ghost-streams']]) expect(await answer(args, older)).toEqual(await expected(args));
    expect(digest(older)).toBe(before);
    expect((await runCli(['load', path.join(FIXTURES, 'home'), '--db', older, '--quiet'])).code).toBe(0);
    const stored = ['sql', `SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = '${table}'`];
    expect(await answer(stored, older)).toEqual([{ n: 1 }]);
    expect(await answer(rows, older)).toEqual(await expected(rows));
  });

  it('is shared with other queries running meanwhile: none is told the database is busy', async () => {
    const older = olderCopy(path.join(work.dir, 'shared', 'older.duckdb'));
    const before = digest(older);
    // Another reader holding the file open, as a long query would.
    const reader = spawn(process.execPath, ['-e', `
      const { DuckDBInstance } = require(${JSON.stringify(path.join(REPO, 'node_modules/@duckdb/node-api'))});
      DuckDBInstance.create(${JSON.stringify(older)}, { access_mode: 'READ_ONLY' }).then(async (i) => { await i.connect(); console.log('held'); setTimeout(() => {}, 60000); });
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => reader.stdout!.once('data', () => resolve()));
      expect(await answer(STARTS, older)).toEqual(await expected(STARTS));
      const both = await Promise.all([startCli([...STARTS, '--db', older, '--format', 'json']).done, startCli([...SESSIONS, '--db', older, '--format', 'json']).done]);
      expect(both.map((run) => [run.code, run.stderr.includes('busy')])).toEqual([[0, false], [0, false]]);
      expect(JSON.parse(both[0].stdout)).toEqual(await expected(STARTS));
      expect(JSON.parse(both[1].stdout)).toEqual(await expected(SESSIONS));
    } finally {
      reader.kill('SIGKILL');
    }
    expect(digest(older)).toBe(before);
  });

  // Permissions bind root only through another user: root runs the CLI as nobody when it can.
  const root = process.getuid?.() === 0;
  const asUser = root ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
  const runAs = (args: string[], env: Record<string, string>) => {
    const [command, ...rest] = [...asUser, process.execPath, CLI, ...args];
    const run = spawnSync(command, rest, { cwd: '/', env: { ...process.env, NO_COLOR: '1', TZ: 'UTC', ...env }, encoding: 'utf8' });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const canDropRoot = !root || runAs(['--version'], {}).code === 0;

  it.skipIf(!canDropRoot)('can be a read-only file in a directory the user cannot write', async () => {
    fs.chmodSync(work.dir, 0o755);
    const older = olderCopy(path.join(work.dir, 'archive', 'older.duckdb'));
    const tmp = path.join(work.dir, 'tmp');
    fs.mkdirSync(tmp, { mode: 0o1777 });
    fs.chmodSync(tmp, 0o1777);
    const before = digest(older);
    fs.chmodSync(older, 0o444);
    fs.chmodSync(path.dirname(older), 0o555);
    try {
      for (const args of [SESSIONS, STARTS]) {
        const run = runAs([...args, '--db', older, '--format', 'json'], { TMPDIR: tmp });
        expect([run.code, run.stderr]).toEqual([0, '']);
        expect(JSON.parse(run.stdout)).toEqual(await expected(args));
      }
    } finally {
      fs.chmodSync(path.dirname(older), 0o755);
      fs.chmodSync(older, 0o644);
    }
    expect(digest(older)).toBe(before);
  });

  it('that lacks a column this version reads and no load adds is refused in one line (exit 2), not with a binder error', async () => {
    const file = path.join(work.dir, 'lacking', 'older.duckdb');
    fs.mkdirSync(path.dirname(file));
    fs.copyFileSync(current, file);
    editDatabase(file, ["UPDATE trajaudit_meta SET value = 'older' WHERE key = 'schema_version'", 'ALTER TABLE events DROP COLUMN agent_id']);
    const before = digest(file);
    const refused = `trajaudit: --db ${file} was written by another version of trajaudit and lacks column events.agent_id, which this version reads and cannot make up; load your inputs into a new --db (trajaudit load <paths> --db NEW_FILE)\n`;
    expect(await runCli(['sql', 'SELECT count(*) FROM sessions', '--db', file])).toEqual({ code: 2, stdout: '', stderr: refused });
    expect(await runCli(['query', 'subagent-starts', '--db', file])).toEqual({ code: 2, stdout: '', stderr: refused });
    expect(digest(file)).toBe(before);
  });
});

// A column of trajaudit's tables that this version does not know: one added by hand in a DuckDB
// client holds NULL in the rows a load adds (the inserts name their columns); one in a file of
// another version (a newer trajaudit's) stops the load before anything is written, schema
// version included. Both were "Binder Error: table events has 14 columns but 13 values", exit 3.
describe('load into --db whose table has a column this version does not know', () => {
  /** A copy of the home, loaded into a database of its own. */
  const loadedCopy = async (name: string) => {
    const home = path.join(work.dir, name);
    fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
    const db = path.join(work.dir, `${name}.duckdb`);
    expect((await runCli(['load', home, '--db', db, '--quiet'])).code).toBe(0);
    return { home, db };
  };
  const append = (home: string) =>
    fs.appendFileSync(path.join(home, 'trajectories/sessions/3b9f02d6/events.jsonl'), '{"event":"Added","session_id":"3b9f02d6","timestamp":"2026-08-22T01:00:00.000Z","data":{}}\n');

  it('added by hand, same version: the load goes on; the new rows hold the column\'s default, else NULL', async () => {
    const { home, db } = await loadedCopy('hand-column');
    editDatabase(db, ["ALTER TABLE events ADD COLUMN note VARCHAR DEFAULT 'mine'", 'ALTER TABLE usage_ledger_rows ADD COLUMN note VARCHAR']);
    append(home);
    fs.appendFileSync(path.join(home, 'usage-ledger.jsonl'), '{"sessionId":"s-new","ts":1787000000,"promptTotal":1}\n');
    const load = await runCli(['load', home, '--db', db, '--quiet']);
    expect([load.code, load.stderr]).toEqual([0, '']);
    const { value } = await runJson(['sql', "SELECT event, note, count(*) AS n FROM events WHERE event IN ('Added', 'SessionStart') GROUP BY ALL ORDER BY ALL", '--db', db]);
    expect(value).toEqual([{ event: 'Added', note: 'mine', n: 1 }, { event: 'SessionStart', note: 'mine', n: 6 }]);
    expect((await runJson(['sql', "SELECT note FROM usage_ledger_rows WHERE session_id = 's-new'", '--db', db])).value).toEqual([{ note: null }]);
  });

  it("in a file of another version: refused, exit 2, nothing written", async () => {
    const { home, db } = await loadedCopy('newer-column');
    editDatabase(db, ['ALTER TABLE events ADD COLUMN newer_field VARCHAR', "UPDATE trajaudit_meta SET value = 'newer' WHERE key = 'schema_version'"]);
    append(home);
    const before = digest(db);
    const load = await runCli(['load', home, '--db', db]);
    expect(load).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: --db ${db} has column events.newer_field, which this version of trajaudit does not know (a newer version wrote the file, or the column was added by hand), so it cannot load into it; nothing was written: load into a new --db (trajaudit load <paths> --db NEW_FILE), or use the version that wrote it\n`,
    });
    expect(digest(db)).toBe(before);
  });
});
