// Claude Code transcripts through the built CLI, against fixtures/claude-home/EXPECTED.md.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixtureDb, runCli, runJson, tempDir } from '../helpers/run-cli.js';

const HOME = path.join(FIXTURES, 'claude-home');
const PROJECTS = path.join(HOME, '.claude', 'projects');
const MALFORMED = path.join(FIXTURES, 'claude-malformed');
const S1 = '7c2e4b1a-93d5-4f8e-a6b0-2d1c9e3f5a47';
const S2 = 'e91f3a6c-0b4d-4c27-8e15-6a9d2f7b3c08';
const S3 = '3a8d5f20-6c1e-4b9a-9f73-b4e2c0d81a65';
const S4 = '5b0c7e93-2f4a-4d18-b6c5-8e1a3d9f0c72';
const db = () => fixtureDb('claude-home');

type Row = Record<string, unknown>;
async function sql(text: string, args: string[]): Promise<Row[]> {
  const { value, run } = await runJson<Row[]>(['sql', text, ...args]);
  expect(run.code, run.stderr).toBe(0);
  return value;
}

const work = tempDir('trajaudit-claude-');
afterAll(() => work.cleanup());

describe('Claude Code transcripts', () => {
  it('load reads every transcript and agent meta file of a ~/.claude, and nothing else it holds', async () => {
    const file = path.join(work.dir, 'load.duckdb');
    const run = await runCli(['load', HOME, '--db', file, '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [summary] = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ files: 19, loaded: 19, files_in_db: 19, malformed_lines: 0 });
    const ledger = await sql(`SELECT kind, count(*) AS files, sum(lines) AS lines, sum(valid) AS valid, sum(bytes) AS bytes FROM input_files GROUP BY kind ORDER BY kind`, ['--db', file]);
    expect(ledger).toEqual([
      { kind: 'claude-agent-meta', files: 6, lines: 6, valid: 6, bytes: 73 + 74 + 87 + 113 + 69 + 62 },
      { kind: 'claude-transcript', files: 13, lines: 134, valid: 134, bytes: 108640 },
    ]);
    // An unchanged reload reads nothing.
    const [again] = JSON.parse((await runCli(['load', HOME, '--db', file, '--format', 'json'])).stdout);
    expect(again).toMatchObject({ files: 19, loaded: 0, unchanged: 19 });
  });

  it('a transcript that grew is read from where it stopped, and every table matches a fresh load of it', async () => {
    const home = path.join(work.dir, 'grown');
    fs.cpSync(HOME, home, { recursive: true });
    const main = path.join(home, '.claude', 'projects', '-home-dev-shop', `${S1}.jsonl`);
    const incremental = path.join(work.dir, 'grown-incremental.duckdb');
    expect((await runCli(['load', home, '--db', incremental])).code).toBe(0);
    // The session goes on: a tool call and its failed result, appended as Claude Code appends.
    const record = (fields: Row) => JSON.stringify({ sessionId: S1, timestamp: '2026-03-02T10:30:00.000Z', isSidechain: false, ...fields });
    fs.appendFileSync(main, `${record({ type: 'assistant', uuid: 'grown-1', message: { id: 'msg_grown', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_grown', name: 'Bash', input: { command: 'false' } }] } })}\n`
      + `${record({ type: 'user', uuid: 'grown-2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_grown', is_error: true, content: 'Exit code 1' }] } })}\n`);
    const [grown] = JSON.parse((await runCli(['load', home, '--db', incremental, '--format', 'json'])).stdout);
    expect(grown).toMatchObject({ loaded: 0, appended: 1, unchanged: 18 });
    const fresh = path.join(work.dir, 'grown-fresh.duckdb');
    expect((await runCli(['load', home, '--db', fresh])).code).toBe(0);
    for (const table of ['claude_lines', 'claude_messages', 'agent_runs', 'api_attempts', 'tool_results', 'compactions']) {
      const rows = `SELECT count(*) AS n, sum(hash(t::VARCHAR)) AS h FROM (SELECT * EXCLUDE (file_id) FROM ${table}) t`;
      const tableRows = table.startsWith('claude_') ? rows : `SELECT count(*) AS n, sum(hash(t::VARCHAR)) AS h FROM ${table} t`;
      expect(await sql(tableRows, ['--db', incremental]), table).toEqual(await sql(tableRows, ['--db', fresh]));
    }
    const bash = (await sql(`SELECT count(*) AS n FROM tool_results WHERE tool_use_id = 'toolu_grown'`, ['--db', incremental]))[0].n;
    expect(bash).toBe(1);
  });

  it('every path form finds the same files: the home holding .claude, .claude, projects, a project dir, a session dir, one transcript', async () => {
    const count = async (named: string) => (await sql(`SELECT count(*) AS n FROM input_files`, [named]))[0].n;
    expect(await count(HOME)).toBe(19);
    expect(await count(path.join(HOME, '.claude'))).toBe(19);
    expect(await count(PROJECTS)).toBe(19);
    expect(await count(path.join(PROJECTS, '-home-dev-api'))).toBe(4);
    expect(await count(path.join(PROJECTS, '-home-dev-shop', S1))).toBe(9);
    expect(await count(path.join(PROJECTS, '-home-dev-api', 'renamed.jsonl'))).toBe(1);
  });

  it('sources names each transcript by its records\' session, renamed.jsonl by S4\'s', async () => {
    const { value, run } = await runJson<{ files: Row[] }>(['sources', ...(await db())]);
    expect(run.code).toBe(0);
    const session = (suffix: string) => value.files.find((f) => String(f.path).endsWith(suffix))?.session_id;
    expect(session('-home-dev-api/renamed.jsonl')).toBe(S4);
    expect(session('-home-dev-api/agent-a4c9e17.jsonl')).toBe(S3);
    expect(session('agent-a3f9c2d1e5b7a8c90.meta.json')).toBe(null);
  });

  it('sessions come from the records: renamed.jsonl is session S4', async () => {
    expect(await sql(`SELECT source, session_id, project, first_ts, last_ts, version FROM agent_sessions ORDER BY first_ts`, await db())).toEqual([
      { source: 'claude-code', session_id: S1, project: '/home/dev/shop', first_ts: '2026-08-18T09:14:02.131Z', last_ts: '2026-08-18T09:32:31.870Z', version: '2.1.39' },
      { source: 'claude-code', session_id: S2, project: '/home/dev/shop', first_ts: '2026-08-20T14:02:40.210Z', last_ts: '2026-08-20T14:08:09.440Z', version: '2.1.39' },
      { source: 'claude-code', session_id: S3, project: '/home/dev/api', first_ts: '2026-08-21T08:40:11.310Z', last_ts: '2026-08-21T08:42:40.073Z', version: '1.0.89' },
      { source: 'claude-code', session_id: S4, project: '/home/dev/api', first_ts: '2026-08-22T16:05:40.118Z', last_ts: '2026-08-22T16:05:48.390Z', version: '2.1.39' },
    ]);
  });

  it('agent_runs: every Task/Agent call, linked by each link on disk, with its outcome (EXPECTED.md §5)', async () => {
    const rows = await sql(`SELECT session_id, agent_id, agent_type, tool_use_id, start_ts, stop_ts, status, silent_failure FROM agent_runs ORDER BY start_ts`, await db());
    const run = (session_id: string, agent_id: string, agent_type: string, tool_use_id: string, start_ts: string, stop_ts: string | null, status: string | null, silent_failure = false) =>
      ({ session_id, agent_id, agent_type, tool_use_id, start_ts, stop_ts, status, silent_failure });
    expect(rows).toEqual([
      run(S1, 'a3f9c2d1e5b7a8c90', 'general-purpose', 'toolu_01iuOzgmNNnCXywqiAF4UODd', '2026-08-18T09:14:21.650Z', '2026-08-18T09:15:03.118Z', 'completed'),
      // Reported completed; the result is an API error: the silent failure.
      run(S1, 'a7e41b09c3d6f2a85', 'Explore', 'toolu_01NbwqrRXRwzP1BYeoBQZftw', '2026-08-18T09:15:18.232Z', '2026-08-18T09:15:45.020Z', 'error', true),
      // No agentId reaches the parent: linked by its prompt.
      run(S1, 'a0c5d8e2f1b49a736', 'general-purpose', 'toolu_01mrSwIoGI5LM8gh1jEGhDE9', '2026-08-18T09:15:49.611Z', '2026-08-18T09:15:51.266Z', 'error'),
      // Never returned: linked by meta.json's toolUseId.
      run(S1, 'a6b2f0e9d4c1a7358', 'Plan', 'toolu_01IA40fsN5qziuh3a8H90klx', '2026-08-18T09:32:10.401Z', null, null),
      // Background: the stop is the task-notification, not the launch ack.
      run(S2, 'a91d3c7e2b0f4a6d5', 'general-purpose', 'toolu_01ASm3K8g2OE0MXnUmowIunD', '2026-08-20T14:02:50.377Z', '2026-08-20T14:07:31.406Z', 'completed'),
      run(S2, 'a5f8e0b3c2d71946a', 'Explore', 'toolu_01MedYz8tJhQBuTIWvTLG2XU', '2026-08-20T14:02:50.912Z', '2026-08-20T14:08:02.551Z', 'error'),
      run(S3, 'a4c9e17', 'general-purpose', 'toolu_01tvs3IWw4HP60fz61qbFhcW', '2026-08-21T08:40:31.840Z', '2026-08-21T08:41:04.925Z', 'completed'),
      // Linked only by its progress line; a user abort.
      run(S3, 'a2f06bd', 'general-purpose', 'toolu_01bdKL5D4dAysFnt7uQGDzYA', '2026-08-21T08:41:12.488Z', '2026-08-21T08:41:52.904Z', 'killed'),
    ]);
    const evidence = await sql(`SELECT evidence FROM agent_runs WHERE silent_failure`, await db());
    expect(evidence).toEqual([{ evidence: expect.stringMatching(/^reported completed, result text: API Error: 529 /) }]);
  });

  it('api_attempts: each retry and terminal error, both error shapes, in time order (EXPECTED.md §4)', async () => {
    const rows = await sql(`SELECT session_id, agent_id, ts, kind, attempt, max_retries, delay_ms, http_status, error_class, connection_code, line
      FROM api_attempts ORDER BY ts`, await db());
    const a = (session_id: string, agent_id: string | null, ts: string, kind: string, attempt: number | null, delay_ms: number | null, http_status: number | null, error_class: string, connection_code: string | null, line: number) =>
      ({ session_id, agent_id, ts, kind, attempt, max_retries: kind === 'retry' ? 10 : null, delay_ms, http_status, error_class, connection_code, line });
    expect(rows).toEqual([
      a(S1, null, '2026-08-18T09:14:03.902Z', 'retry', 1, 562, null, 'connection', 'ECONNRESET', 4),
      a(S1, null, '2026-08-18T09:14:06.211Z', 'retry', 2, 1187, 529, 'overloaded', null, 5),
      a(S1, 'a7e41b09c3d6f2a85', '2026-08-18T09:15:44.950Z', 'terminal', null, null, 529, 'server_error', null, 4),
      a(S1, null, '2026-08-18T09:21:31.577Z', 'retry', 1, 533, null, 'connection', 'ECONNRESET', 36),
      a(S1, null, '2026-08-18T09:21:34.870Z', 'retry', 2, 1095, 503, 'server_error', null, 37),
      // Written after the terminal line, but earlier in time.
      a(S1, null, '2026-08-18T09:21:38.402Z', 'retry', 3, 2215, 529, 'overloaded', null, 39),
      a(S1, null, '2026-08-18T09:21:42.015Z', 'terminal', null, null, 429, 'rate_limit', null, 38),
      a(S3, null, '2026-08-21T08:40:14.006Z', 'retry', 1, 587, 529, 'overloaded', null, 2),
      a(S3, null, '2026-08-21T08:40:15.820Z', 'retry', 2, 1210, null, 'connection', 'ECONNRESET', 3),
    ]);
  });

  it('tool_results: root errors apart from sibling cascades, progress copies not counted (EXPECTED.md §7)', async () => {
    expect(await sql(`SELECT tool_name, count(*) AS results, count(*) FILTER (is_error) AS errors, count(*) FILTER (sibling_cascade) AS cascades
      FROM tool_results GROUP BY ALL ORDER BY tool_name`, await db())).toEqual([
      { tool_name: 'Bash', results: 7, errors: 2, cascades: 0 },
      { tool_name: 'Edit', results: 1, errors: 0, cascades: 0 },
      { tool_name: 'Glob', results: 2, errors: 0, cascades: 0 },
      { tool_name: 'Grep', results: 5, errors: 1, cascades: 1 },
      { tool_name: 'Read', results: 8, errors: 1, cascades: 1 },
      { tool_name: 'Task', results: 7, errors: 2, cascades: 0 },
    ]);
  });

  it('compactions: one full and one micro; the summariser sidechain is neither a compaction nor a run', async () => {
    expect(await sql(`SELECT session_id, agent_id, ts, trigger, pre_tokens, kind, line FROM compactions ORDER BY ts`, await db())).toEqual([
      { session_id: S1, agent_id: null, ts: '2026-08-18T09:31:49.012Z', trigger: 'auto', pre_tokens: 167000, kind: 'compact', line: 47 },
      { session_id: S3, agent_id: null, ts: '2026-08-21T08:42:20.655Z', trigger: 'auto', pre_tokens: 98214, kind: 'microcompact', line: 17 },
    ]);
    expect(await sql(`SELECT count(*) AS n FROM agent_runs WHERE starts_with(agent_id, 'acompact')`, await db())).toEqual([{ n: 0 }]);
  });

  it('signal_coverage: what each source records', async () => {
    const rows = await sql(`SELECT source, signal, recorded FROM signal_coverage ORDER BY source, signal`, await db());
    expect(rows.filter((r) => r.source === 'claude-code').map((r) => `${r.signal}=${r.recorded}`)).toEqual([
      'compactions=true', 'ghost_streams=false', 'main_retries=true', 'stream_phases=false',
      'subagent_outcomes=true', 'subagent_retries=false', 'task_outputs=false', 'tool_errors=true',
    ]);
    expect(rows.filter((r) => r.source === 'sid-code').every((r) => r.recorded === true)).toBe(true);
  });
});

describe('canned queries over Claude Code', () => {
  it('api-errors: retries and terminal errors by day and cause', async () => {
    const { value, run } = await runJson<Row[]>(['query', 'api-errors', ...(await db())]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const r = (day: string, kind: string, http_status: number | null, error_class: string, connection_code: string | null, attempts: number, main_thread: number, max_attempt: number | null) =>
      ({ day, source: 'claude-code', kind, http_status, error_class, connection_code, attempts, sessions: 1, main_thread, subagent: attempts - main_thread, max_attempt });
    expect(value).toEqual([
      r('2026-08-18', 'retry', 529, 'overloaded', null, 2, 2, 3),
      r('2026-08-18', 'retry', null, 'connection', 'ECONNRESET', 2, 2, 1),
      r('2026-08-18', 'retry', 503, 'server_error', null, 1, 1, 2),
      r('2026-08-18', 'terminal', 429, 'rate_limit', null, 1, 1, null),
      r('2026-08-18', 'terminal', 529, 'server_error', null, 1, 0, null),
      r('2026-08-21', 'retry', 529, 'overloaded', null, 1, 1, 1),
      r('2026-08-21', 'retry', null, 'connection', 'ECONNRESET', 1, 1, 2),
    ]);
  });

  it('agent-outcomes: runs per agent type, never-stopped and silent failures counted', async () => {
    const { value } = await runJson<Row[]>(['query', 'agent-outcomes', ...(await db())]);
    expect(value).toEqual([
      { source: 'claude-code', agent_type: 'general-purpose', runs: 5, completed: 3, error: 1, killed: 1, unknown: 0, never_stopped: 0, silent_failure: 0 },
      { source: 'claude-code', agent_type: 'Explore', runs: 2, completed: 0, error: 2, killed: 0, unknown: 0, never_stopped: 0, silent_failure: 1 },
      { source: 'claude-code', agent_type: 'Plan', runs: 1, completed: 0, error: 0, killed: 0, unknown: 0, never_stopped: 1, silent_failure: 0 },
    ]);
  });

  it('tool-errors: the cascade root once, its siblings apart; --session narrows by id prefix', async () => {
    const { value } = await runJson<Row[]>(['query', 'tool-errors', ...(await db()), '--session', S1.slice(0, 8)]);
    expect(value).toEqual([
      { source: 'claude-code', tool_name: 'Bash', results: 4, errors: 1, root_errors: 1, sibling_cascades: 0, error_rate: 0.25 },
      { source: 'claude-code', tool_name: 'Task', results: 3, errors: 1, root_errors: 1, sibling_cascades: 0, error_rate: 0.333 },
      { source: 'claude-code', tool_name: 'Edit', results: 1, errors: 0, root_errors: 0, sibling_cascades: 0, error_rate: 0 },
      { source: 'claude-code', tool_name: 'Grep', results: 3, errors: 1, root_errors: 0, sibling_cascades: 1, error_rate: 0.333 },
      { source: 'claude-code', tool_name: 'Read', results: 4, errors: 1, root_errors: 0, sibling_cascades: 1, error_rate: 0.25 },
    ]);
  });

  it('a query over a source that does not record its signal says so on stderr, never a silent 0', async () => {
    const run = await runCli(['query', 'retry-by-agent', ...(await db()), '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(run.stderr).toBe("trajaudit: claude-code does not record subagent retries (sidechains never get api_error records: only a subagent's terminal API error is recorded): not recorded, so retry-by-agent has no claude-code rows\n");
    const starts = await runCli(['query', 'subagent-starts', ...(await db()), '--format', 'json']);
    expect(starts.stderr).toBe('trajaudit: subagent-starts reads sid-code data only; claude-code\'s subagent outcomes: trajaudit query agent-outcomes\n');
  });
});

describe('Claude Code input problems and mixed homes', () => {
  it('malformed lines are listed with file:line and the rest loads; --strict fails', async () => {
    const file = path.join(work.dir, 'malformed.duckdb');
    const run = await runCli(['load', MALFORMED, '--db', file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('trajaudit: 3 lines in 1 file could not be read; they are listed by `trajaudit sources`\n');
    const problems = await sql(`SELECT path, line, byte_offset, kind FROM input_problems ORDER BY line`, ['--db', file]);
    const main = '.claude/projects/-home-dev-bad/c4d2a9e1-7b3f-4e60-a815-f0b6c3d27e94.jsonl';
    expect(problems).toEqual([
      { path: main, line: 6, byte_offset: 3169, kind: 'malformed' },
      { path: main, line: 8, byte_offset: 4632, kind: 'malformed' },
      { path: main, line: 9, byte_offset: 5030, kind: 'malformed' },
    ]);
    expect(await sql(`SELECT lines, valid, blank, malformed FROM input_files WHERE path = '${main}'`, ['--db', file])).toEqual([{ lines: 12, valid: 8, blank: 1, malformed: 3 }]);
    expect((await runCli(['sources', '--db', file, '--strict'])).code).toBe(1);
  });

  it('a sid-code home and a Claude Code home in one load: each source keeps its own rows, table by table', async () => {
    const tables = ['events', 'error_records', 'warn_lines', 'usage_ledger_rows', 'session_index_rows', 'session_summaries', 'heartbeats', 'task_outputs', 'session_dirs'];
    const sidAlone = await fixtureDb('home');
    const mixed = path.join(work.dir, 'mixed.duckdb');
    expect((await runCli(['load', path.join(FIXTURES, 'home'), HOME, '--db', mixed, '--quiet'])).code).toBe(0);
    // Paths are relative to the root the load names: the common parent here, home/ alone there.
    const kept = (table: string) => (table === 'session_dirs' ? 'session_id' : `* EXCLUDE (file_id${table === 'task_outputs' ? ', path' : ''})`);
    const digest = (table: string) => `SELECT count(*) AS n, coalesce(sum(hash(t::VARCHAR)), 0)::VARCHAR AS h FROM (SELECT ${kept(table)} FROM ${table}) t`;
    for (const table of tables) {
      const alone = await sql(digest(table), sidAlone);
      expect(alone[0].n, table).toBeGreaterThan(0);
      expect(await sql(digest(table), ['--db', mixed]), table).toEqual(alone);
    }
    const sources = await sql(`SELECT source, count(*) AS runs FROM agent_runs GROUP BY ALL ORDER BY source`, ['--db', mixed]);
    expect(sources).toEqual([{ source: 'claude-code', runs: 8 }, { source: 'sid-code', runs: 10 }]);
  });

  it('with no path, every default home that exists is read, and a line says which', async () => {
    const env = { SID_CONFIG_DIR: path.join(FIXTURES, 'home'), CLAUDE_CONFIG_DIR: path.join(HOME, '.claude') };
    const run = await runCli(['sql', 'SELECT source, count(*) AS sessions FROM agent_sessions GROUP BY ALL ORDER BY source', '--format', 'csv', '--quiet'], { env });
    expect(run.stdout).toBe('source,sessions\r\nclaude-code,4\r\nsid-code,5\r\n');
    expect(run.stderr).toBe(`trajaudit: no input path given: reading ${env.SID_CONFIG_DIR} (sid-code) and ${PROJECTS} (claude-code)\n`);
    // A Claude Code home with no session yet is read as the empty home it is, beside sid-code's.
    const fresh = path.join(work.dir, 'fresh-claude');
    fs.mkdirSync(path.join(fresh, 'projects'), { recursive: true });
    const both = await runCli(['sql', 'SELECT count(*) AS files FROM input_files', '--format', 'csv', '--quiet'], { env: { ...env, CLAUDE_CONFIG_DIR: fresh } });
    expect(both).toEqual({ code: 0, stdout: 'files\r\n36\r\n', stderr: `trajaudit: no input path given: reading ${env.SID_CONFIG_DIR} (sid-code) and ${path.join(fresh, 'projects')} (claude-code)\n` });
    const none = await runCli(['sources'], { env: { SID_CONFIG_DIR: '', HOME: work.dir, CLAUDE_CONFIG_DIR: '' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no input path given and no default home exists');
    expect(fs.existsSync(path.join(work.dir, '.claude'))).toBe(false);
  });
});

describe('timeline of a Claude Code session', () => {
  it('merges the main thread and its sidechains in time order, each row naming its agent', async () => {
    const { value, run } = await runJson<Row[]>(['timeline', S1.slice(0, 8), ...(await db()), '--event', 'api_error', '--event', 'api_error_message']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(value.map((r) => [r.ts, r.source, r.event, r.agent, r.line])).toEqual([
      ['2026-08-18T09:14:03.902Z', 'transcript', 'api_error', null, 4],
      ['2026-08-18T09:14:06.211Z', 'transcript', 'api_error', null, 5],
      ['2026-08-18T09:15:44.950Z', 'transcript', 'api_error_message', 'a7e41b09c3d6f2a85', 4],
      ['2026-08-18T09:21:31.577Z', 'transcript', 'api_error', null, 36],
      ['2026-08-18T09:21:34.870Z', 'transcript', 'api_error', null, 37],
      ['2026-08-18T09:21:38.402Z', 'transcript', 'api_error', null, 39],
      ['2026-08-18T09:21:42.015Z', 'transcript', 'api_error_message', null, 38],
    ]);
    expect(value[1].summary).toBe('status=529 attempt=2 error="API Error: 529 Overloaded" maxRetries=10 retryInMs=1187.3');
    expect(value[6].summary).toMatch(/^status=429 error=rate_limit text="API Error: 429 /);
  });

  it('--agent keeps one sidechain', async () => {
    const { value } = await runJson<Row[]>(['timeline', S1, ...(await db()), '--agent', 'a7e41b09c3d6f2a85']);
    expect(value.map((r) => [r.event, r.agent, r.line])).toEqual([
      ['user', 'a7e41b09c3d6f2a85', 1],
      ['tool_use', 'a7e41b09c3d6f2a85', 2],
      ['tool_result', 'a7e41b09c3d6f2a85', 3],
      ['api_error_message', 'a7e41b09c3d6f2a85', 4],
    ]);
  });
});

describe('report over Claude Code', () => {
  it('covers it in the cross-agent sections, and says "not recorded" where its data cannot answer', async () => {
    type Section = { id: string; rows: Row[]; notes: string[] };
    const { value, run } = await runJson<{ sections: Section[] }>(['report', ...(await db()), '--since', '2026-08-17', '--until', '2026-08-24']);
    expect(run.code).toBe(0);
    const section = (id: string) => value.sections.find((s) => s.id === id)!;
    expect(section('agent-outcomes').rows.map((r) => [r.source, r.agent_type, r.runs, r.silent_failure])).toEqual([
      ['claude-code', 'general-purpose', 5, 0], ['claude-code', 'Explore', 2, 1], ['claude-code', 'Plan', 1, 0],
    ]);
    expect(section('retries-by-agent').notes).toContain("claude-code does not record subagent retries (sidechains never get api_error records: only a subagent's terminal API error is recorded): not recorded, so retry-by-agent has no claude-code rows");
    expect(section('ghost-streams').notes.some((n) => n.startsWith('claude-code does not record ghost streams'))).toBe(true);
    expect(section('api-errors').notes.filter((n) => n.includes('not recorded'))).toEqual([]);
  });
});
