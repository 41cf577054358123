// `load --db` is incremental and idempotent (issue: unchanged → nothing read; grown → only new
// lines; replaced or truncated → clean reload; identity is path + content; one writer at a time).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editDatabase } from '../helpers/edit-database.js';
import { FIXTURES, REPO, runJson, runCli, tempDir } from '../helpers/run-cli.js';

const SESSION = 'trajectories/sessions/20260815-091500-0badf00d';
interface LoadRow { files: number; loaded: number; appended: number; reloaded: number; unchanged: number; files_in_db: number; malformed_lines: number }
interface FileRow { path: string; lines: number; valid: number; blank: number; malformed: number; bytes: number }

let work: ReturnType<typeof tempDir>;
let home: string;
let db: string;
const events = () => path.join(home, SESSION, 'events.jsonl');
const load = async () => (await runJson<LoadRow[]>(['load', home, '--db', db])).value[0];
const files = async () => (await runJson<{ files: FileRow[] }>(['sources', '--db', db])).value.files;
const eventLines = async () => (await runJson<{ line: number; event: string }[]>(['sql', 'SELECT line, event FROM events ORDER BY line', '--db', db])).value;

beforeEach(() => {
  work = tempDir();
  home = path.join(work.dir, 'home');
  db = path.join(work.dir, 'audit.duckdb');
  fs.cpSync(path.join(FIXTURES, 'malformed-lines'), home, { recursive: true });
});
afterEach(() => work.cleanup());

describe('load --db', () => {
  it('loads once, then finds everything unchanged', async () => {
    expect(await load()).toMatchObject({ files: 1, loaded: 1, unchanged: 0, files_in_db: 1, malformed_lines: 6 });
    expect(await load()).toMatchObject({ files: 1, loaded: 0, appended: 0, reloaded: 0, unchanged: 1, files_in_db: 1, malformed_lines: 6 });
    expect(await eventLines()).toHaveLength(4);
  });

  it('reads only the new lines of a grown file, and completes the line that was cut short', async () => {
    await load();
    // The crashed writer's unterminated tail is completed by the next append: it becomes valid.
    fs.appendFileSync(events(), '"}}\n{"event":"SessionStart","session_id":"x","timestamp":"2026-08-15T02:00:00.000Z","data":{}}\n');
    expect(await load()).toMatchObject({ loaded: 0, appended: 1, reloaded: 0, malformed_lines: 5 });
    expect(await files()).toEqual([{ path: `${SESSION}/events.jsonl`, kind: 'events', session_id: '20260815-091500-0badf00d', bytes: 1632 + 95, lines: 13, valid: 6, blank: 2, malformed: 5, ts_unread: 0 }]);
    expect((await eventLines()).slice(-2)).toEqual([{ line: 12, event: 'UserPromptSubmit' }, { line: 13, event: 'SessionStart' }]);
    expect(await load()).toMatchObject({ unchanged: 1 });
  });

  it('reloads a truncated or replaced file cleanly', async () => {
    await load();
    const text = fs.readFileSync(events(), 'utf8');
    fs.writeFileSync(events(), text.split('\n').slice(0, 1).join('\n') + '\n');
    expect(await load()).toMatchObject({ reloaded: 1, malformed_lines: 0 });
    expect(await eventLines()).toEqual([{ line: 1, event: 'SessionStart' }]);
    fs.writeFileSync(events(), text.replace('SessionStart', 'SessionStarT'));
    expect(await load()).toMatchObject({ reloaded: 1, malformed_lines: 6 });
    expect((await eventLines())[0]).toEqual({ line: 1, event: 'SessionStarT' });
  });

  it('reloads a file edited in place to the same size, even one whose last line was cut (only an append grows a file)', async () => {
    const line = (i: number) => JSON.stringify({ event: 'StreamPhase', session_id: 'x', timestamp: '2026-08-15T09:15:00.000Z', data: { index: 100 + i, phase: 'fetch_sent' } });
    const lines = Array.from({ length: 200 }, (_, i) => line(i));
    const cut = line(999).slice(0, 40);
    fs.writeFileSync(events(), `${lines.join('\n')}\n${cut}`);
    expect(await load()).toMatchObject({ loaded: 1 });
    // Past the first 4 KiB and before the last 4 KiB read: neither block's hash sees the edit.
    lines[100] = lines[100].replace('"index":200', '"index":777');
    fs.writeFileSync(events(), `${lines.join('\n')}\n${cut.replace('StreamPhase', 'StreamPhasf')}`);
    fs.utimesSync(events(), new Date(), new Date(Date.now() + 5000));
    expect(await load()).toMatchObject({ reloaded: 1, appended: 0 });
    const idx = (await runJson<{ idx: number }[]>(['sql', 'SELECT idx FROM events WHERE line = 101', '--db', db])).value;
    expect(idx).toEqual([{ idx: 777 }]);
  });

  it('finds a settled file unchanged by its stat stamp, and still sees an edit that keeps its size and mtime', async () => {
    const stamps = async () => (await runJson<{ n: number }[]>(['sql', 'SELECT count(stat_stamp) AS n FROM input_files', '--db', db])).value[0].n;
    const written = fs.statSync(events());
    expect(await load()).toMatchObject({ loaded: 1 });
    // Changed less than 2 s ago: another change in the same clock tick could keep its change time.
    expect(await stamps()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await load()).toMatchObject({ loaded: 0, reloaded: 0, unchanged: 1 });
    expect(await stamps()).toBe(1);
    expect(await load()).toMatchObject({ loaded: 0, reloaded: 0, unchanged: 1 });
    // The same size and mtime (touch -r), a new first line: its change time moved, so its head is read.
    fs.writeFileSync(events(), fs.readFileSync(events(), 'utf8').replace('SessionStart', 'SessionStarT'));
    fs.utimesSync(events(), written.atime, written.mtime);
    const now = fs.statSync(events());
    expect([now.size, now.mtime.toISOString()]).toEqual([written.size, written.mtime.toISOString()]);
    expect(await load()).toMatchObject({ reloaded: 1, unchanged: 0 });
    expect((await eventLines())[0]).toEqual({ line: 1, event: 'SessionStarT' });
  });

  it('pairs a Start read by one load with the Stop appended for the next (subagent runs are made again after each load that wrote rows)', async () => {
    const line = (event: string, ts: string, data: Record<string, unknown>) => JSON.stringify({ event, session_id: '20260815-091500-0badf00d', timestamp: ts, cwd: '/p', data });
    const agent = 'subagent-explore-a1b2c3d4e';
    fs.writeFileSync(events(), `${line('SubagentStart', '2026-08-15T09:15:00.000Z', { agent_id: agent, agent_type: 'explore', description: 'look' })}\n`);
    const runs = async () => (await runJson<Record<string, unknown>[]>(['sql', 'SELECT agent_id, start_line, stop_line, status FROM subagent_runs', '--db', db])).value;
    expect(await load()).toMatchObject({ loaded: 1 });
    expect(await runs()).toEqual([{ agent_id: agent, start_line: 1, stop_line: null, status: null }]);
    fs.appendFileSync(events(), `${line('SubagentStop', '2026-08-15T09:16:00.000Z', { agent_id: agent, agent_type: 'explore', elapsed_ms: 60000, status: 'completed' })}\n`);
    expect(await load()).toMatchObject({ appended: 1 });
    expect(await runs()).toEqual([{ agent_id: agent, start_line: 1, stop_line: 2, status: 'completed' }]);
    // The task's stored Start and Stop (subagent_task_rows) are made again with the runs.
    const byAgent = (await runJson<Record<string, unknown>[]>(['query', 'retry-by-agent', '--db', db])).value;
    expect(byAgent).toEqual([{ session_id: '20260815-091500-0badf00d', agent_id: agent, task_id: 'a1b2c3d4e', agent_type: 'explore', retries: 0, budget_exhausted: 0, cooldown_waits: 0, fallbacks: 0, streams_completed: 0, stop_status: 'completed' }]);
    // Nothing written: the runs stay as they are.
    expect(await load()).toMatchObject({ unchanged: 1 });
    expect(await runs()).toEqual([{ agent_id: agent, start_line: 1, stop_line: 2, status: 'completed' }]);
  });

  it('counts a sub-agent stream whose rows two loads read as one stream (its row is made again after each load that wrote rows)', async () => {
    const phase = (ts: string, phaseName: string, chunks?: number) =>
      JSON.stringify({ event: 'StreamPhase', session_id: '20260815-091500-0badf00d', timestamp: ts, cwd: '/p',
        data: { index: 10001, phase: phaseName, agent_id: 'subagent-explore-a1b2c3d4e', ...(chunks === undefined ? {} : { chunk_count: chunks }) } });
    const streams = async () => (await runJson<Record<string, unknown>[]>(['sql', 'SELECT "index", first_ts, last_ts, tagged_rows, tagged_chunks, cut_off FROM subagent_stream_rows', '--db', db])).value;
    const attribution = async () => (await runJson<Record<string, unknown>[]>(['query', 'snapshot-attribution', '--db', db])).value;
    fs.writeFileSync(events(), `${phase('2026-08-15T09:15:00.000Z', 'fetch_sent')}\n`);
    expect(await load()).toMatchObject({ loaded: 1 });
    expect(await streams()).toEqual([{ index: 10001, first_ts: '2026-08-15T09:15:00.000Z', last_ts: '2026-08-15T09:15:00.000Z', tagged_rows: 1, tagged_chunks: null, cut_off: true }]);
    fs.appendFileSync(events(), `${phase('2026-08-15T09:15:02.000Z', 'completed', 7)}\n`);
    expect(await load()).toMatchObject({ appended: 1 });
    const whole = { index: 10001, first_ts: '2026-08-15T09:15:00.000Z', last_ts: '2026-08-15T09:15:02.000Z', tagged_rows: 2, tagged_chunks: 7, cut_off: false };
    expect(await streams()).toEqual([whole]);
    expect(await attribution()).toMatchObject([{ index: 10001, agents: 1, tagged_rows: 2, tagged_chunks: 7, verdict: 'clean' }]);
    expect(await load()).toMatchObject({ unchanged: 1 });
    expect(await streams()).toEqual([whole]);
  });

  it('makes the stored runs, streams, tasks, wakes and connections of the sessions a load wrote again, as a fresh load of the same files has them', async () => {
    const tree = path.join(work.dir, 'sessions-home');
    fs.cpSync(path.join(FIXTURES, 'home'), tree, { recursive: true });
    const id = '20260814-093015-c7a2e5f1';
    const line = (event: string, ts: string, data: Record<string, unknown>) => JSON.stringify({ event, session_id: id, timestamp: ts, cwd: '/p', data });
    const agent = 'subagent-explore-a7k3m9q2w';
    const tables = ['subagent_run_rows', 'subagent_stream_rows', 'subagent_task_rows', 'cooldown_wake_rows', 'ghost_stream_rows'];
    const rows = async (file: string) => Object.fromEntries(await Promise.all(tables.map(async (t) =>
      [t, (await runJson<Record<string, unknown>[]>(['sql', `SELECT * FROM ${t} ORDER BY ALL`, '--db', file])).value] as const)));
    const perSession = async (file: string) => (await runJson<Record<string, unknown>[]>(['sql',
      `SELECT session_id, count(*) AS n FROM (${tables.map((t) => `SELECT session_id FROM ${t}`).join(' UNION ALL ')}) GROUP BY ALL ORDER BY ALL`, '--db', file])).value;
    expect((await runJson<LoadRow[]>(['load', tree, '--db', db])).value[0]).toMatchObject({ appended: 0 });
    const before = await perSession(db);
    fs.appendFileSync(path.join(tree, 'trajectories/sessions', id, 'events.jsonl'), [
      line('SubagentStart', '2026-08-14T08:00:00.000Z', { agent_id: agent, agent_type: 'explore', description: 'look again' }),
      line('StreamPhase', '2026-08-14T08:00:01.000Z', { index: 10007, phase: 'fetch_sent', agent_id: agent }),
      line('RetryTelemetry', '2026-08-14T08:00:02.000Z', { type: 'shared_cooldown_wait', agentId: agent, delayMs: 500 }),
      line('SubagentStop', '2026-08-14T08:00:03.000Z', { agent_id: agent, agent_type: 'explore', status: 'error' }),
      line('HttpConnected', '2026-08-14T08:00:04.000Z', { index: 7 }),
    ].map((l) => `${l}\n`).join(''));
    expect((await runJson<LoadRow[]>(['load', tree, '--db', db])).value[0]).toMatchObject({ appended: 1, loaded: 0, reloaded: 0 });
    // Its session has one more row in each table; the others keep theirs.
    expect(await perSession(db)).toEqual(before.map((r) => (r.session_id === id ? { ...r, n: (r.n as number) + 5 } : r)));
    const fresh = path.join(work.dir, 'fresh.duckdb');
    expect((await runCli(['load', tree, '--db', fresh, '--quiet'])).code).toBe(0);
    expect(await rows(db)).toEqual(await rows(fresh));
  });

  it('after a load stopped before its end, makes every session\'s stored runs again, even with nothing new to read', async () => {
    const tree = path.join(work.dir, 'stopped-home');
    fs.cpSync(path.join(FIXTURES, 'home'), tree, { recursive: true });
    const runs = async () => (await runJson<Record<string, unknown>[]>(['sql', 'SELECT * FROM subagent_run_rows ORDER BY ALL', '--db', db])).value;
    expect((await runCli(['load', tree, '--db', db, '--quiet'])).code).toBe(0);
    const whole = await runs();
    expect(whole.length).toBeGreaterThan(5);
    // As a load killed after its commits and before the last step leaves it: the mark, and stored
    // runs that miss what it wrote.
    editDatabase(db, ['DELETE FROM subagent_run_rows', `INSERT OR REPLACE INTO trajaudit_meta VALUES ('load_unfinished', '2026-08-15T09:15:00.000Z')`]);
    expect((await runJson<LoadRow[]>(['load', tree, '--db', db])).value[0]).toMatchObject({ loaded: 0, appended: 0, reloaded: 0 });
    expect(await runs()).toEqual(whole);
  });

  it('reloads a rewritten usage ledger whole: the writer upserts, so growth is not an append', async () => {
    const ledger = path.join(home, 'usage-ledger.jsonl');
    const row = (k: number, cost: string) => `{"ts":1786328065,"sessionId":"s${String(k).padStart(3, '0')}","model":"glm-5.2","promptTotal":100,"costUSD":${cost}}\n`;
    const rows = Array.from({ length: 200 }, (_, k) => row(k, '1.25'));
    fs.writeFileSync(ledger, rows.join(''));
    expect(await load()).toMatchObject({ loaded: 2 });
    // Row 100 changes in place, far from the first and last 4 KiB, and one row is added: read as an
    // append, the stale cost would stay.
    rows[100] = row(100, '9.75');
    fs.writeFileSync(ledger, rows.join('') + row(200, '0.10'));
    expect(await load()).toMatchObject({ loaded: 0, appended: 0, reloaded: 1 });
    const costs = (await runJson<{ session_id: string; cost_usd: number }[]>(['sql', `SELECT session_id, cost_usd FROM usage_ledger WHERE session_id IN ('s099', 's100', 's200') ORDER BY 1`, '--db', db])).value;
    expect(costs).toEqual([{ session_id: 's099', cost_usd: 1.25 }, { session_id: 's100', cost_usd: 9.75 }, { session_id: 's200', cost_usd: 0.1 }]);
    expect(await load()).toMatchObject({ unchanged: 2 });
  });

  it('never collapses two files with the same content at different paths', async () => {
    const twin = path.join(home, 'trajectories/sessions/20260815-091500-feedbeef');
    fs.cpSync(path.join(home, SESSION), twin, { recursive: true });
    expect(await load()).toMatchObject({ files: 2, loaded: 2, files_in_db: 2, malformed_lines: 12 });
    const perSession = (await runJson<{ session_id: string; n: number }[]>(['sql', 'SELECT session_id, count(*) AS n FROM events GROUP BY 1 ORDER BY 1', '--db', db])).value;
    expect(perSession).toEqual([{ session_id: '20260815-091500-0badf00d', n: 4 }, { session_id: '20260815-091500-feedbeef', n: 4 }]);
  });

  it('a home named through a symbolic link is the same home: nothing is loaded twice', async () => {
    expect(await load()).toMatchObject({ loaded: 1 });
    const link = path.join(work.dir, 'link-to-home');
    fs.symlinkSync(home, link);
    const again = (await runJson<LoadRow[]>(['load', link, '--db', db])).value[0];
    expect(again).toMatchObject({ files: 1, loaded: 0, unchanged: 1, files_in_db: 1 });
    // Named both ways at once, it is one home, and its paths are the home's own.
    const both = (await runJson<{ files: FileRow[] }>(['sources', home, link])).value.files;
    expect(both.map((f) => f.path)).toEqual([`${SESSION}/events.jsonl`]);
    expect(await eventLines()).toHaveLength(4);
  });

  it('keeps one root for its paths: a later load of one session or one file shows the same paths, a wider one prefixes them', async () => {
    const twin = path.join(home, 'trajectories/sessions/20260815-091500-feedbeef');
    fs.cpSync(path.join(home, SESSION), twin, { recursive: true });
    await load();
    const paths = async () => (await runJson<{ path: string }[]>(['sql', 'SELECT path FROM input_files UNION ALL SELECT path FROM session_dirs ORDER BY 1', '--db', db])).value.map((r) => r.path);
    const whole = [`${SESSION}`, `${SESSION}/events.jsonl`, 'trajectories/sessions/20260815-091500-feedbeef', 'trajectories/sessions/20260815-091500-feedbeef/events.jsonl'];
    expect(await paths()).toEqual(whole);
    expect((await runJson<LoadRow[]>(['load', path.join(home, SESSION), '--db', db])).value[0]).toMatchObject({ unchanged: 1 });
    expect((await runJson<LoadRow[]>(['load', path.join(twin, 'events.jsonl'), '--db', db])).value[0]).toMatchObject({ unchanged: 1 });
    expect(await paths()).toEqual(whole);
    const problems = (await runJson<{ where: string }[]>(['sources', '--db', db, '--section', 'problems'])).value.map((p) => p.where);
    expect(problems.filter((w) => w.endsWith(':2'))).toEqual([`${SESSION}/events.jsonl:2`, 'trajectories/sessions/20260815-091500-feedbeef/events.jsonl:2']);
    // A second home beside the first widens the root to their parent: every path gains its home's name.
    const other = path.join(work.dir, 'other-home');
    fs.cpSync(path.join(FIXTURES, 'malformed-lines', SESSION), path.join(other, 'trajectories/sessions/20260815-091500-0caff01d'), { recursive: true });
    expect((await runJson<LoadRow[]>(['load', other, '--db', db])).value[0]).toMatchObject({ loaded: 1 });
    expect(await paths()).toEqual([...whole.map((p) => `home/${p}`), 'other-home/trajectories/sessions/20260815-091500-0caff01d', 'other-home/trajectories/sessions/20260815-091500-0caff01d/events.jsonl']);
    expect(await load()).toMatchObject({ unchanged: 2 });
    expect(await paths()).toHaveLength(6);
  });

  it('a later load of one session or one file keeps what was skipped elsewhere in the home', async () => {
    const full = path.join(work.dir, 'full');
    fs.cpSync(path.join(FIXTURES, 'home'), full, { recursive: true });
    const skipped = async (file: string) => (await runJson<{ path: string }[]>(['sql', 'SELECT path FROM skipped_inputs ORDER BY path', '--db', file])).value.map((r) => r.path);
    const fresh = path.join(work.dir, 'fresh.duckdb');
    await runJson(['load', full, '--db', fresh]);
    expect(await skipped(fresh)).toEqual([
      'EXPECTED.md',
      'trajectories/sessions/20260814-093015-c7a2e5f1/raw.jsonl',
      'trajectories/sessions/20260814-093015-c7a2e5f1/session.traj',
      'trajectories/sessions/20260819-183103-4f7a9c2e/tool-outputs',
    ]);
    const session = path.join(full, 'trajectories/sessions/20260819-183103-4f7a9c2e');
    await runJson(['load', full, '--db', db]);
    await runJson(['load', session, '--db', db]);
    await runJson(['load', path.join(session, 'events.jsonl'), '--db', db]);
    expect(await skipped(db)).toEqual(await skipped(fresh));
  });

  it('a skipped entry in a linked session dir is one entry, whichever way the dir is named, and goes when its file does', async () => {
    const full = path.join(work.dir, 'linked');
    fs.cpSync(path.join(FIXTURES, 'home'), full, { recursive: true });
    const outside = path.join(work.dir, 'outside', '3b9f02d6');
    fs.mkdirSync(path.dirname(outside));
    fs.renameSync(path.join(full, 'trajectories/sessions/3b9f02d6'), outside);
    fs.symlinkSync(outside, path.join(full, 'trajectories/sessions/3b9f02d6'));
    fs.writeFileSync(path.join(outside, 'stray.md'), 'hi\n');
    const stray = async () => (await runJson<{ path: string }[]>(['sql', `SELECT path FROM skipped_inputs WHERE path LIKE '%stray%'`, '--db', db])).value.length;
    await runJson(['load', full, '--db', db]);
    await runJson(['load', path.join(full, 'trajectories/sessions/3b9f02d6'), '--db', db]);
    expect(await stray()).toBe(1);
    fs.rmSync(path.join(outside, 'stray.md'));
    await runJson(['load', full, '--db', db]);
    expect(await stray()).toBe(0);
    // The linked dir moved into the home: one entry, under its new real path.
    fs.writeFileSync(path.join(outside, 'stray.md'), 'hi\n');
    await runJson(['load', full, '--db', db]);
    fs.rmSync(path.join(full, 'trajectories/sessions/3b9f02d6'));
    fs.renameSync(outside, path.join(full, 'trajectories/sessions/3b9f02d6'));
    await runJson(['load', full, '--db', db]);
    expect(await stray()).toBe(1);
  });

  it('a session dir replaced by a file: its files are gone, not an internal error', async () => {
    await load();
    const dir = path.join(home, SESSION);
    fs.rmSync(dir, { recursive: true });
    fs.writeFileSync(dir, 'x\n');
    fs.mkdirSync(path.join(home, 'trajectories/sessions/20260815-091500-0caff01d'));
    // Other content: the same file under another session dir is the session dir renamed (moved-files.ts).
    fs.writeFileSync(path.join(home, 'trajectories/sessions/20260815-091500-0caff01d/events.jsonl'), fs.readFileSync(path.join(FIXTURES, 'malformed-lines', SESSION, 'events.jsonl'), 'utf8').replace(/\n/, '\n{"event":"X","session_id":"20260815-091500-0caff01d","timestamp":"2026-08-15T09:15:00.000Z","data":{}}\n'));
    const run = await runCli(['load', home, '--db', db, '--quiet']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`trajaudit: 1 file in ${db} no longer exists on disk (${SESSION}/events.jsonl)`);
  });

  it('moving a tasks dir moves the paths task_outputs shows with it', async () => {
    const store = path.join(work.dir, 'store');
    fs.cpSync(path.join(FIXTURES, 'home', 'tasks'), path.join(store, 'tasks'), { recursive: true });
    fs.symlinkSync(path.join(store, 'tasks'), path.join(home, 'tasks'));
    await runJson(['load', home, '--db', db]);
    await runJson(['load', path.join(store, 'tasks'), '--db', db]);
    const rows = (await runJson<{ file_path: string; task_path: string }[]>(['sql', 'SELECT f.path AS file_path, t.path AS task_path FROM input_files f JOIN task_outputs t USING (file_id) ORDER BY 1 LIMIT 1', '--db', db])).value;
    expect(rows).toEqual([{ file_path: 'store/tasks/a0z6h3j8d.output', task_path: 'store/tasks/a0z6h3j8d.output' }]);
  });

  it('says when files it holds are gone from disk, and keeps their rows', async () => {
    const twin = path.join(home, 'trajectories/sessions/20260815-091500-feedbeef');
    fs.cpSync(path.join(home, SESSION), twin, { recursive: true });
    await load();
    fs.rmSync(twin, { recursive: true });
    const run = await runCli(['load', home, '--db', db, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)[0]).toMatchObject({ files: 1, unchanged: 1, files_in_db: 2 });
    expect(run.stderr).toContain(`trajaudit: 1 file in ${db} no longer exists on disk (trajectories/sessions/20260815-091500-feedbeef/events.jsonl); its rows are kept: to drop them, load into a new --db\n`);
  });

  it('drops the heartbeat of a session that ended cleanly (sid-code deletes heartbeat.txt at SessionEnd), and says nothing of it', async () => {
    const dir = path.join(home, SESSION);
    const heartbeat = path.join(dir, 'heartbeat.txt');
    fs.writeFileSync(heartbeat, JSON.stringify({ ts: '2026-08-15T09:20:10.000Z', session_id: '20260815-091500-0badf00d', event_loop_lag_ms: 1, active_request: null }));
    const heartbeats = async () => (await runJson<{ ts: string }[]>(['sql', 'SELECT ts FROM heartbeats', '--db', db])).value;
    const files = async () => (await runJson<{ kind: string }[]>(['sql', 'SELECT kind FROM input_files ORDER BY kind', '--db', db])).value.map((r) => r.kind);
    expect(await load()).toMatchObject({ loaded: 2 });
    expect(await heartbeats()).toEqual([{ ts: '2026-08-15T09:20:10.000Z' }]);
    fs.appendFileSync(path.join(dir, 'events.jsonl'), '{"event":"SessionEnd","session_id":"20260815-091500-0badf00d","timestamp":"2026-08-15T09:20:11.000Z","data":{"reason":"exit"}}\n');
    fs.rmSync(heartbeat);
    const run = await runCli(['load', home, '--db', db, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('no longer exist');
    expect(JSON.parse(run.stdout)[0]).toMatchObject({ files: 1, appended: 1, files_in_db: 1 });
    expect(await heartbeats()).toEqual([]);
    expect(await files()).toEqual(['events']);
  });

  it('a database from before real-path keys, loaded through a link, is rekeyed once and not loaded twice', async () => {
    const link = path.join(work.dir, 'link-to-home');
    fs.symlinkSync(home, link);
    expect((await runJson<LoadRow[]>(['load', link, '--db', db])).value[0]).toMatchObject({ loaded: 1 });
    // As an older trajaudit left it: the file keyed by the path as named, through the link.
    editDatabase(db, [`UPDATE input_files SET key = '${path.join(link, SESSION, 'events.jsonl')}'`, "DELETE FROM trajaudit_meta WHERE key = 'file_keys'"]);
    expect((await runJson<LoadRow[]>(['load', link, '--db', db])).value[0]).toMatchObject({ loaded: 0, unchanged: 1, files_in_db: 1 });
    expect(await eventLines()).toHaveLength(4);
  });

  it('a database from before real-path keys that holds a file twice (through a link and directly) keeps one copy', async () => {
    await load();
    const link = path.join(work.dir, 'link-to-home');
    fs.symlinkSync(home, link);
    // An older trajaudit loaded the home a second time through the link: same file, two keys, rows twice.
    const linked = path.join(link, SESSION, 'events.jsonl');
    editDatabase(db, [
      `INSERT INTO input_files SELECT 999, '${linked}', path, kind, session_id, bytes, lines, valid, blank, malformed, mtime, head_hash, complete_bytes, complete_lines, tail_hash, min_ts, max_ts, loaded_at, stat_stamp FROM input_files`,
      'INSERT INTO events SELECT 999, session_id, line, ts, event, envelope_session_id, cwd, idx, agent_id, type, phase, data, ts_unread FROM events',
      "DELETE FROM trajaudit_meta WHERE key = 'file_keys'",
    ]);
    expect((await runJson<{ n: number }[]>(['sql', 'SELECT count(*) AS n FROM events', '--db', db])).value).toEqual([{ n: 8 }]);
    expect(await load()).toMatchObject({ loaded: 0, unchanged: 1, files_in_db: 1 });
    expect(await eventLines()).toHaveLength(4);
  });

  it('a database from before the root was kept finds it from its files, so a later load of one session keeps the paths', async () => {
    await load();
    editDatabase(db, ["DELETE FROM trajaudit_meta WHERE key = 'root'", 'UPDATE session_dirs SET key = NULL']);
    expect((await runJson<LoadRow[]>(['load', path.join(home, SESSION), '--db', db])).value[0]).toMatchObject({ unchanged: 1 });
    const paths = (await runJson<{ path: string }[]>(['sql', 'SELECT path FROM input_files UNION ALL SELECT path FROM session_dirs ORDER BY 1', '--db', db])).value;
    expect(paths).toEqual([{ path: SESSION }, { path: `${SESSION}/events.jsonl` }]);
  });

  it('a database from before the root was kept, whose last load was one session, gets one root for every path again', async () => {
    const twin = path.join(home, 'trajectories/sessions/20260815-091500-feedbeef');
    fs.cpSync(path.join(home, SESSION), twin, { recursive: true });
    fs.mkdirSync(path.join(home, 'tasks'));
    fs.writeFileSync(path.join(home, 'tasks', 'a1b2c3d4e.output'), 'ok\n');
    await load();
    // As an older trajaudit left it after `load <one session dir>`: that session's file as bare `events.jsonl`.
    editDatabase(db, ["DELETE FROM trajaudit_meta WHERE key = 'root'", "UPDATE input_files SET path = 'events.jsonl' WHERE path LIKE '%0badf00d%'", "UPDATE input_problems SET path = 'events.jsonl' WHERE path LIKE '%0badf00d%'"]);
    expect(await load()).toMatchObject({ unchanged: 3 });
    const paths = (await runJson<{ path: string }[]>(['sql', 'SELECT DISTINCT path FROM input_files UNION SELECT DISTINCT path FROM input_problems UNION SELECT path FROM task_outputs ORDER BY 1', '--db', db])).value;
    expect(paths).toEqual([{ path: 'tasks/a1b2c3d4e.output' }, { path: `${SESSION}/events.jsonl` }, { path: 'trajectories/sessions/20260815-091500-feedbeef/events.jsonl' }]);
    const root = (await runJson<{ value: string }[]>(['sql', `SELECT value FROM trajaudit_meta WHERE key = 'root'`, '--db', db])).value;
    expect(root).toEqual([{ value: fs.realpathSync(home) }]);
  });

  it('never writes inside the input tree', async () => {
    const before = fs.readdirSync(home, { recursive: true }).sort();
    await load();
    expect(fs.readdirSync(home, { recursive: true }).sort()).toEqual(before);
  });

  it('a second writer on the same --db is told the database is busy (exit 2)', async () => {
    await load();
    const holder = spawn(process.execPath, ['-e', `
      const { DuckDBInstance } = require(${JSON.stringify(path.join(REPO, 'node_modules/@duckdb/node-api'))});
      DuckDBInstance.create(${JSON.stringify(db)}).then(async (i) => { await i.connect(); console.log('held'); setTimeout(() => {}, 20000); });
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    try {
      const second = await runCli(['load', home, '--db', db]);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/^trajaudit: database .*audit\.duckdb is busy: another process has it open \(a load writes alone; queries share it with other queries\); wait for it to finish and run again\n$/);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('queries over --db share it with other queries; a load waits for them to finish (exit 2)', async () => {
    await load();
    const reader = spawn(process.execPath, ['-e', `
      const { DuckDBInstance } = require(${JSON.stringify(path.join(REPO, 'node_modules/@duckdb/node-api'))});
      DuckDBInstance.create(${JSON.stringify(db)}, { access_mode: 'READ_ONLY' }).then(async (i) => { await i.connect(); console.log('held'); setTimeout(() => {}, 20000); });
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => reader.stdout.once('data', () => resolve()));
    try {
      expect(await eventLines()).toHaveLength(4);
      const writer = await runCli(['load', home, '--db', db]);
      expect(writer.code).toBe(2);
      expect(writer.stderr).toMatch(/is busy: another process has it open/);
    } finally {
      reader.kill('SIGKILL');
    }
  });

  it('a query over another DuckDB file says it holds no trajaudit data', async () => {
    const other = path.join(work.dir, 'other.duckdb');
    editDatabase(other, ['CREATE TABLE notes (t VARCHAR)']);
    expect(await runCli(['sql', 'SELECT 1', '--db', other])).toEqual({ code: 2, stdout: '', stderr: `trajaudit: --db ${other} holds no trajaudit data (another DuckDB file, or a load into it stopped before its first commit); run: trajaudit load <paths> --db ${other}\n` });
  });

  it('a query over a database from another version reads it through this version\'s views and leaves it as it was; a load renews them in the file', async () => {
    await load();
    editDatabase(db, ["UPDATE trajaudit_meta SET value = 'older' WHERE key = 'schema_version'", 'DROP VIEW stream_phases']);
    const version = async () => (await runJson<{ v: string }[]>(['sql', `SELECT value AS v FROM trajaudit_meta WHERE key = 'schema_version'`, '--db', db])).value[0].v;
    const first = await runJson<{ n: number }[]>(['sql', 'SELECT count(*) AS n FROM stream_phases', '--db', db]);
    expect(first.run.code).toBe(0);
    expect(first.value).toEqual([{ n: 0 }]);
    expect(await version()).toBe('older');
    expect(await load()).toMatchObject({ unchanged: 1 });
    expect(await version()).toMatch(/^[0-9a-f]{40}$/);
  });

  it('a query over a --db that does not exist says so and creates nothing', async () => {
    const missing = path.join(work.dir, 'missing.duckdb');
    expect(await runCli(['sql', 'SELECT 1', '--db', missing])).toEqual({ code: 2, stdout: '', stderr: `trajaudit: --db ${missing} does not exist; create it with: trajaudit load <paths> --db ${missing}\n` });
    expect(fs.existsSync(missing)).toBe(false);
  });
});
