// A link inside sessions/ to a session dir read under its own name elsewhere (`sessions/latest` →
// `sessions/2026-08/<id>`, an archive by month) is another name for that dir: its session is
// that dir's, and what is skipped in it is listed under the real path. Before, the alias became
// a session of its own with no files, and took the real session's skipped entries.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runJson, tempDir } from '../helpers/run-cli.js';

const { dir, cleanup } = tempDir('trajaudit-session-alias-');
afterAll(cleanup);

const SESSIONS = 'trajectories/sessions';
const ID = '20260814-093015-c7a2e5f1'; // holds raw.jsonl and session.traj, which trajaudit does not read

describe('a link in sessions/ to a session dir in a group dir', () => {
  it('is another name for it: one session, its skipped entries under the real path', async () => {
    const home = path.join(dir, 'home');
    fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
    const sessions = path.join(home, SESSIONS);
    fs.mkdirSync(path.join(sessions, '2026-08'));
    fs.renameSync(path.join(sessions, ID), path.join(sessions, '2026-08', ID));
    fs.symlinkSync(`2026-08/${ID}`, path.join(sessions, 'latest'));
    const db = path.join(dir, 'alias.duckdb');
    const skipped = (await runJson<{ path: string; reason: string }[]>(['sources', home, '--db', db, '--section', 'skipped'])).value;
    expect(skipped.filter((s) => s.path.includes(ID) || s.path.includes('latest'))).toEqual([
      { path: `${SESSIONS}/2026-08/${ID}/raw.jsonl`, reason: 'not a format trajaudit reads' },
      { path: `${SESSIONS}/2026-08/${ID}/session.traj`, reason: 'not a format trajaudit reads' },
      { path: `${SESSIONS}/latest`, reason: `another name for session directory ${ID}` },
    ]);
    const sessionsRows = await runJson<{ session_id: string; path: string }[]>(['sql', 'SELECT session_id, path FROM session_dirs ORDER BY session_id', '--db', db]);
    expect(sessionsRows.value).toHaveLength(5);
    expect(sessionsRows.value).toContainEqual({ session_id: ID, path: `${SESSIONS}/2026-08/${ID}` });
    expect((await runJson<{ files: number }[]>(['sql', `SELECT count(*) AS files FROM input_files WHERE session_id = '${ID}'`, '--db', db])).value).toEqual([{ files: 3 }]);
  });
});
