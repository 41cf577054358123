// A session dir renamed (or archived under a new name) with no link left at its old name is the
// same session's files: a load into the --db that held them counts its events once, as the
// renamed session's, and `sources` says where the old dir went. Before, every event counted twice.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

const { dir, cleanup } = tempDir('trajaudit-renamed-session-');
afterAll(cleanup);

const SESSIONS = 'trajectories/sessions';
const OLD = '20260812-142207-8d3e61f0';
const NEW = 'archived-2026-08-12';
const COUNTS = `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM sessions) AS sessions,
  (SELECT count(*) FROM events WHERE session_id = '${OLD}') AS old_events, (SELECT count(*) FROM events WHERE session_id = '${NEW}') AS new_events`;

describe('a session dir renamed with no link left', () => {
  it('counts its events once, as the renamed session, and sources says where it went', async () => {
    const home = path.join(dir, 'home');
    fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
    const db = path.join(dir, 'h.duckdb');
    expect((await runCli(['load', home, '--db', db, '--quiet'])).code).toBe(0);
    const before = (await runJson<Record<string, number>[]>(['sql', COUNTS, '--db', db])).value[0];
    expect(before).toMatchObject({ events: 413, sessions: 5, new_events: 0 });
    expect(before.old_events).toBeGreaterThan(0);

    fs.renameSync(path.join(home, SESSIONS, OLD), path.join(home, SESSIONS, NEW));
    const load = await runJson<Record<string, number>[]>(['load', home, '--db', db, '--quiet']);
    expect(load.value[0]).toMatchObject({ files: 36, loaded: 0, reloaded: 2, unchanged: 34, files_in_db: 36 });
    const after = (await runJson<Record<string, number>[]>(['sql', COUNTS, '--db', db])).value[0];
    expect(after).toEqual({ events: 413, sessions: 5, old_events: 0, new_events: before.old_events });
    // The same as a fresh load of the renamed home, table by table.
    const fresh = path.join(dir, 'fresh.duckdb');
    expect((await runCli(['load', home, '--db', fresh, '--quiet'])).code).toBe(0);
    expect((await runJson(['sql', COUNTS, '--db', fresh])).value).toEqual([after]);

    const moved = { path: `${SESSIONS}/${OLD}`, reason: `moved: renamed to ${SESSIONS}/${NEW}, where its files are read (once)` };
    const skipped = async () => (await runJson<{ path: string; reason: string }[]>(['sources', '--db', db, '--section', 'skipped'])).value;
    expect(await skipped()).toContainEqual(moved);
    // Said on later loads too, until something is at the old path again.
    expect((await runJson<Record<string, number>[]>(['load', home, '--db', db, '--quiet'])).value[0]).toMatchObject({ unchanged: 36 });
    expect(await skipped()).toContainEqual(moved);
    fs.mkdirSync(path.join(home, SESSIONS, OLD));
    expect((await runCli(['load', home, '--db', db, '--quiet'])).code).toBe(0);
    expect((await skipped()).filter((s) => s.path === moved.path)).toEqual([]);
  });
});
