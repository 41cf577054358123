// A home moved to another place (another disk), with or without a link left at the old one, is
// the same home: a file is identified by its path under the root plus its content (issue #2 §6),
// so a load after the move finds its files unchanged instead of loading every event a second time.
// Two files that are both on disk still never become one.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editDatabase } from '../helpers/edit-database.js';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

interface LoadRow { files: number; loaded: number; appended: number; reloaded: number; unchanged: number; files_in_db: number; malformed_lines: number }

// fixtures/home: 36 files, 413 events, 7 unreadable lines in 6 files (EXPECTED.md).
const UNREADABLE = 'trajaudit: 7 lines in 6 files could not be read; they are listed by `trajaudit sources`\n';
const GROWN = 'trajectories/sessions/20260814-093015-c7a2e5f1/events.jsonl';
const EDITED = 'trajectories/sessions/20260819-183103-4f7a9c2e/warn.log';
const SESSIONS = 'trajectories/sessions';
// S5, killed: the only session with a heartbeat.txt (sid-code deletes it at a clean SessionEnd).
const HEARTBEAT = 'trajectories/sessions/20260821-101500-b2d84e07/heartbeat.txt';
/** A load of the moved home with HEARTBEAT gone: every other file found unchanged. */
const UNCHANGED_BUT_HEARTBEAT = {
  row: { files: 35, loaded: 0, appended: 0, reloaded: 0, unchanged: 35, read_mib: 0, files_in_db: 35, malformed_lines: 7 },
  stderr: UNREADABLE,
  code: 0,
};

/** Every table and view, file ids replaced by paths, as one comparable value per table. */
const CONTENT = ['events', 'error_records', 'warn_lines', 'usage_ledger_rows', 'session_index_rows', 'session_summaries', 'heartbeats', 'task_outputs', 'input_problems']
  .map((t) => `SELECT '${t}' AS t, count(*) AS n, sum(hash(r)::HUGEINT)::VARCHAR AS h FROM (SELECT f.path AS file, x.* EXCLUDE (file_id) FROM ${t} x JOIN input_files f USING (file_id)) r`)
  .concat([
    `SELECT 'input_files', count(*), sum(hash(r)::HUGEINT)::VARCHAR FROM (SELECT * EXCLUDE (file_id, key, loaded_at, stat_stamp) FROM input_files) r`,
    `SELECT 'skipped_inputs', count(*), sum(hash(r)::HUGEINT)::VARCHAR FROM (SELECT * EXCLUDE (key) FROM skipped_inputs) r`,
    `SELECT 'session_dirs', count(*), sum(hash(r)::HUGEINT)::VARCHAR FROM (SELECT * EXCLUDE (key) FROM session_dirs) r`,
    `SELECT 'sessions', count(*), sum(hash(r)::HUGEINT)::VARCHAR FROM sessions r`,
  ])
  .join(' UNION ALL ') + ' ORDER BY 1';

let work: ReturnType<typeof tempDir>;
let home: string;
let db: string;
const load = async (named: string) => {
  const run = await runCli(['load', named, '--db', db, '--format', 'json']);
  return { row: JSON.parse(run.stdout)[0] as LoadRow, stderr: run.stderr, code: run.code };
};
const SUMMARY = `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM skipped_inputs) AS skipped,
  (SELECT string_agg(path, ' ' ORDER BY path) FROM input_files) AS paths`;
const summary = async () => (await runJson<{ events: number; skipped: number; paths: string }[]>(['sql', SUMMARY, '--db', db])).value[0];
/** Every table, and what `sources` says, of `db` against a fresh load of `tree` (file ids and keys aside). */
const expectAsFresh = async (tree: string) => {
  const fresh = path.join(work.dir, 'fresh.duckdb');
  await runJson(['load', tree, '--db', fresh]);
  expect((await runJson(['sql', CONTENT, '--db', db])).value).toEqual((await runJson(['sql', CONTENT, '--db', fresh])).value);
  expect((await runJson(['sources', '--db', db])).value).toEqual((await runJson(['sources', '--db', fresh])).value);
};

beforeEach(() => {
  work = tempDir();
  home = path.join(work.dir, 'sid-code');
  db = path.join(work.dir, 'audit.duckdb');
  fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
});
afterEach(() => work.cleanup());

describe('a home that moved', () => {
  it('left as a link at its old place: every file unchanged, nothing loaded twice, the same paths; copies stay apart', async () => {
    expect((await load(home)).row).toMatchObject({ files: 36, loaded: 36, files_in_db: 36 });
    const before = await summary();
    expect(before).toMatchObject({ events: 413, skipped: 4 });
    const moved = path.join(work.dir, 'other-disk');
    fs.renameSync(home, moved);
    fs.symlinkSync(moved, home);
    expect(await load(home)).toEqual({
      row: { files: 36, loaded: 0, appended: 0, reloaded: 0, unchanged: 36, read_mib: 0, files_in_db: 36, malformed_lines: 7 },
      stderr: UNREADABLE,
      code: 0,
    });
    expect(await summary()).toEqual(before);

    // A copy beside it is a second home; with both gone, a third copy matches two stored files
    // each: it is loaded, not guessed to be either.
    const copy = path.join(work.dir, 'copy');
    fs.cpSync(moved, copy, { recursive: true });
    expect((await load(copy)).row).toMatchObject({ files: 36, loaded: 36, unchanged: 0, files_in_db: 72 });
    const third = path.join(work.dir, 'third');
    fs.cpSync(moved, third, { recursive: true });
    for (const gone of [home, moved, copy]) fs.rmSync(gone, { recursive: true });
    const run = await load(third);
    expect(run.row).toMatchObject({ files: 36, loaded: 36, unchanged: 0, files_in_db: 108 });
    expect(run.stderr).toContain(`trajaudit: 72 files in ${db} no longer exist on disk`);
    expect((await summary()).events).toBe(3 * 413);
  });

  it('moved without a link, one file grown and one edited in place: as a fresh load of it, and no file said to be gone', async () => {
    await load(home);
    const moved = path.join(work.dir, 'other-disk');
    fs.renameSync(home, moved);
    fs.appendFileSync(path.join(moved, GROWN), '{"event":"SessionEnd","session_id":"20260814-093015-c7a2e5f1","timestamp":"2026-08-14T10:00:00.000Z","data":{}}\n');
    const warn = path.join(moved, EDITED);
    fs.writeFileSync(warn, fs.readFileSync(warn, 'utf8').replace('WARN', 'INFO'));
    expect(await load(moved)).toEqual({
      row: { files: 36, loaded: 0, appended: 1, reloaded: 1, unchanged: 34, read_mib: 0, files_in_db: 36, malformed_lines: 7 },
      stderr: UNREADABLE,
      code: 0,
    });
    const fresh = path.join(work.dir, 'fresh.duckdb');
    await runJson(['load', moved, '--db', fresh]);
    const content = (await runJson<{ t: string; n: number }[]>(['sql', CONTENT, '--db', db])).value;
    expect(content.find((r) => r.t === 'events')!.n).toBe(414);
    expect(content).toEqual((await runJson(['sql', CONTENT, '--db', fresh])).value);
  });

  it('with a heartbeat.txt deleted meanwhile (a clean SessionEnd): its rows go, not kept as a file gone from disk', async () => {
    await load(home);
    const moved = path.join(work.dir, 'other-disk');
    fs.renameSync(home, moved);
    fs.rmSync(path.join(moved, HEARTBEAT));
    expect(await load(moved)).toEqual(UNCHANGED_BUT_HEARTBEAT);
    expect((await runJson(['sql', 'SELECT count(*) AS n FROM heartbeats', '--db', db])).value).toEqual([{ n: 0 }]);
    await expectAsFresh(moved);
  });

  it('in a database from before the root was stored: the root moves with it, as for one that keeps it', async () => {
    await load(home);
    // As an older trajaudit left it: no root in trajaudit_meta, paths relative to the home.
    editDatabase(db, ["DELETE FROM trajaudit_meta WHERE key = 'root'"]);
    const moved = path.join(work.dir, 'elsewhere', 'sid-code-2');
    fs.mkdirSync(path.dirname(moved));
    fs.renameSync(home, moved);
    fs.rmSync(path.join(moved, HEARTBEAT));
    expect(await load(moved)).toEqual(UNCHANGED_BUT_HEARTBEAT);
    expect((await runJson(['sql', "SELECT value FROM trajaudit_meta WHERE key = 'root'", '--db', db])).value).toEqual([{ value: moved }]);
    await expectAsFresh(moved);
  });
});

describe('a session dir renamed, a link left at its old name', () => {
  it('is one session under its new name, as in a fresh load: the old name has no session_dirs or sessions row', async () => {
    await load(home);
    const sessions = path.join(home, SESSIONS);
    fs.renameSync(path.join(sessions, '3b9f02d6'), path.join(sessions, '3b9f02d6-renamed'));
    fs.symlinkSync('3b9f02d6-renamed', path.join(sessions, '3b9f02d6'));
    // Its two files are reloaded as the renamed session's (rows carry their session).
    expect(await load(home)).toEqual({
      row: { files: 36, loaded: 0, appended: 0, reloaded: 2, unchanged: 34, read_mib: 0.01, files_in_db: 36, malformed_lines: 7 },
      stderr: UNREADABLE,
      code: 0,
    });
    const ids = `SELECT string_agg(session_id, ' ' ORDER BY session_id) AS ids FROM sessions WHERE session_id LIKE '3b9f02d6%'`;
    expect((await runJson(['sql', ids, '--db', db])).value).toEqual([{ ids: '3b9f02d6-renamed' }]);
    await expectAsFresh(home);

    // Named by its old name, the link stands for the renamed dir: nothing changes.
    expect((await load(path.join(sessions, '3b9f02d6'))).row).toMatchObject({ files: 2, unchanged: 2, files_in_db: 36 });
    await expectAsFresh(home);
  });

  it('named by its old name alone: the old row goes as well', async () => {
    await load(home);
    const sessions = path.join(home, SESSIONS);
    fs.renameSync(path.join(sessions, '3b9f02d6'), path.join(sessions, '3b9f02d6-renamed'));
    fs.symlinkSync('3b9f02d6-renamed', path.join(sessions, '3b9f02d6'));
    expect((await load(path.join(sessions, '3b9f02d6'))).row).toMatchObject({ files: 2, reloaded: 2, files_in_db: 36 });
    const ids = `SELECT string_agg(session_id, ' ' ORDER BY session_id) AS ids FROM session_dirs WHERE session_id LIKE '3b9f02d6%'`;
    expect((await runJson(['sql', ids, '--db', db])).value).toEqual([{ ids: '3b9f02d6-renamed' }]);
  });

  it('in a home that moved without a link, its heartbeat.txt deleted meanwhile: as a fresh load of the moved home', async () => {
    await load(home);
    const moved = path.join(work.dir, 'other-disk');
    fs.renameSync(home, moved);
    const sessions = path.join(moved, SESSIONS);
    const killed = path.basename(path.dirname(HEARTBEAT));
    fs.rmSync(path.join(moved, HEARTBEAT));
    fs.renameSync(path.join(sessions, killed), path.join(sessions, `${killed}-renamed`));
    fs.symlinkSync(`${killed}-renamed`, path.join(sessions, killed));
    // Its files are found through the link at the old name under the root, and read again as the
    // renamed session's; none is said to be gone.
    expect(await load(moved)).toEqual({
      row: { files: 35, loaded: 0, appended: 0, reloaded: 3, unchanged: 32, read_mib: 0.01, files_in_db: 35, malformed_lines: 7 },
      stderr: UNREADABLE,
      code: 0,
    });
    await expectAsFresh(moved);
  });
});
