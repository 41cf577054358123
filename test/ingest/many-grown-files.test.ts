// The everyday incremental load: many sessions each appended a few lines since the last load. Each
// grown file's new lines are read the staged way, whose scratch table keeps a block of DuckDB's
// pool until the commit: with every grown file in one commit group, 800 of them filled the 192 MB
// pool and the load crawled for minutes. A pool of 48 MB shows it with 200 files (the load was
// still going after 30 s); commit groups of at most 32 such files keep it linear.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBinaryJson, runJson, tempDir } from '../helpers/run-cli.js';

const N = 200;
const work = tempDir();
afterAll(work.cleanup);
const line = (event: string, session: string, second: number) =>
  `${JSON.stringify({ event, session_id: session, timestamp: `2026-08-18T10:00:${String(second).padStart(2, '0')}.000Z`, data: {} })}\n`;

describe(`load --db after ${N} session files grew`, () => {
  it('reads the new line of each, within a small pool', async () => {
    const home = path.join(work.dir, 'home');
    const eventsOf = (k: number) => path.join(home, 'trajectories/sessions', `s${k}`, 'events.jsonl');
    for (let k = 0; k < N; k += 1) {
      fs.mkdirSync(path.dirname(eventsOf(k)), { recursive: true });
      fs.writeFileSync(eventsOf(k), line('SessionStart', `s${k}`, 0));
    }
    const db = path.join(work.dir, 'grown.duckdb');
    // One connection: two side by side need more than 48 MB.
    const env = { TRAJAUDIT_MEMORY_LIMIT: '48MB', TRAJAUDIT_PARALLEL: '1' };
    const timeoutMs = 45_000;
    // The first load at the default pool: it reads the 200 files in one read_json statement, which
    // takes more than 48 MB (its buffer alone is 32 MiB).
    expect(runBinaryJson<unknown[]>(['load', home, '--db', db], { env: { TRAJAUDIT_PARALLEL: '1' }, timeoutMs }).value).toEqual([{ files: N, loaded: N, appended: 0, reloaded: 0, unchanged: 0, read_mib: 0.02, files_in_db: N, malformed_lines: 0 }]);
    for (let k = 0; k < N; k += 1) fs.appendFileSync(eventsOf(k), line('SessionEnd', `s${k}`, 9));
    const { value, run } = runBinaryJson<unknown[]>(['load', home, '--db', db], { env, timeoutMs });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(value).toEqual([{ files: N, loaded: 0, appended: N, reloaded: 0, unchanged: 0, read_mib: 0.02, files_in_db: N, malformed_lines: 0 }]);
    const events = await runJson(['sql', 'SELECT event, count(*) AS n, count(DISTINCT session_id) AS sessions, min(line) AS first, max(line) AS last FROM events GROUP BY 1 ORDER BY 1', '--db', db]);
    expect(events.value).toEqual([
      { event: 'SessionEnd', n: N, sessions: N, first: 2, last: 2 },
      { event: 'SessionStart', n: N, sessions: N, first: 1, last: 1 },
    ]);
  });
});
