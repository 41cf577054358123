// fixtures/home through the built CLI; every figure is from fixtures/home/EXPECTED.md §1, §2, §10.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson } from '../helpers/run-cli.js';

const HOME = path.join(FIXTURES, 'home');
const S = 'trajectories/sessions';
type FileRow = { path: string; kind: string; bytes: number; lines: number | null; valid: number | null; blank: number | null; malformed: number | null };

describe('fixtures/home: the input ledger', async () => {
  const { value, run } = await runJson<{ files: FileRow[]; problems: Record<string, unknown>[]; skipped: { path: string; reason: string }[]; totals: Record<string, number> }>(['sources', HOME]);
  const byPath = new Map(value.files.map((f) => [f.path, f]));
  const counts = (p: string) => {
    const f = byPath.get(p)!;
    return [f.bytes, f.lines, f.valid, f.blank, f.malformed];
  };

  it('reads every JSONL file with exact counts (EXPECTED §2)', () => {
    expect(run.code).toBe(0);
    expect(counts(`${S}/3b9f02d6/events.jsonl`)).toEqual([6733, 31, 30, 0, 1]);
    expect(counts(`${S}/20260812-142207-8d3e61f0/events.jsonl`)).toEqual([20160, 84, 83, 0, 1]);
    expect(counts(`${S}/20260814-093015-c7a2e5f1/events.jsonl`)).toEqual([26388, 102, 101, 0, 1]);
    expect(counts(`${S}/20260814-093015-c7a2e5f1/errors.jsonl`)).toEqual([1154, 3, 3, 0, 0]);
    expect(counts(`${S}/20260819-183103-4f7a9c2e/events.jsonl`)).toEqual([42042, 167, 165, 1, 1]);
    expect(counts(`${S}/20260821-101500-b2d84e07/events.jsonl`)).toEqual([8652, 36, 34, 0, 2]);
    expect(counts(`${S}/20260821-101500-b2d84e07/errors.jsonl`)).toEqual([450, 1, 1, 0, 0]);
    expect(counts('usage-ledger.jsonl')).toEqual([2076, 7, 7, 0, 0]);
    expect(counts('session-index.jsonl')).toEqual([2185, 5, 5, 0, 0]);
  });

  it('reads warn.log records, documents and the tasks census (EXPECTED §2, §10)', () => {
    expect(counts(`${S}/20260819-183103-4f7a9c2e/warn.log`)).toEqual([4156, 29, 28, 1, 0]);
    expect(counts(`${S}/20260821-101500-b2d84e07/warn.log`)).toEqual([657, 5, 4, 0, 1]);
    expect(counts(`${S}/20260821-101500-b2d84e07/heartbeat.txt`)).toEqual([353, 1, 1, 0, 0]);
    expect(counts(`${S}/20260814-093015-c7a2e5f1/session-summary.json`)).toEqual([1720, 88, 88, 0, 0]);
    const tasks = value.files.filter((f) => f.kind === 'task-output');
    expect(tasks).toHaveLength(20);
    expect(tasks.every((t) => t.lines === null)).toBe(true);
    for (const f of value.files) if (f.lines !== null) expect(f.valid! + f.blank! + f.malformed!).toBe(f.lines);
  });

  it('lists the seven unreadable lines with file:line, offset and kind', () => {
    expect(value.problems.map((p) => [p.where, p.byte_offset, p.kind])).toEqual([
      [`${S}/20260812-142207-8d3e61f0/events.jsonl:13`, 2914, 'malformed'],
      [`${S}/20260814-093015-c7a2e5f1/events.jsonl:88`, 22674, 'malformed'],
      [`${S}/20260819-183103-4f7a9c2e/events.jsonl:54`, 13326, 'malformed'],
      [`${S}/20260821-101500-b2d84e07/events.jsonl:18`, 4296, 'malformed'],
      [`${S}/20260821-101500-b2d84e07/events.jsonl:36`, 8502, 'truncated-tail'],
      [`${S}/20260821-101500-b2d84e07/warn.log:1`, 0, 'malformed'],
      [`${S}/3b9f02d6/events.jsonl:9`, 1489, 'malformed'],
    ]);
    expect(value.totals).toEqual({ files: 36, bytes: 121131, lines: 692, valid: 683, blank: 2, malformed: 7, ts_unread: 0, duplicate_keys: 0, skipped: 4, unreadable: 0 });
  });

  it('lists, rather than reads, the files it does not ingest', () => {
    expect(value.skipped.map((s) => s.path)).toEqual([
      'EXPECTED.md',
      `${S}/20260814-093015-c7a2e5f1/raw.jsonl`,
      `${S}/20260814-093015-c7a2e5f1/session.traj`,
      `${S}/20260819-183103-4f7a9c2e/tool-outputs`,
    ]);
  });

  it('human formats show one row per tasks dir, its bytes and ts_unread summed; JSON and CSV keep every file', async () => {
    const folded = '| tasks/\\*.output (20 files) | task-output |  | 1849 |  |  |  |  | 0 |';
    for (const args of [[], ['--section', 'files']]) {
      const md = await runCli(['sources', HOME, '--format', 'md', ...args]);
      expect(md.stdout).toContain(folded);
      expect(md.stdout).not.toMatch(/tasks\/a\w+\.output/);
    }
    // The table shows the counts a folded row has none of as NULL, and numbers right-aligned.
    expect((await runCli(['sources', HOME, '--section', 'files'])).stdout).toMatch(/│ tasks\/\*\.output \(20 files\) +│ task-output +│ NULL +│ +1849 │ +NULL │ +NULL │ +NULL │ +NULL │ +0 │/);
    expect(value.files.filter((f) => f.kind === 'task-output')).toHaveLength(20);
    expect((await runCli(['sources', HOME, '--format', 'csv'])).stdout.match(/^tasks\/\w+\.output,/gm)).toHaveLength(20);
    expect((await runCli(['sources', '--help'])).stdout.replace(/\s+/g, ' ')).toContain('table and md fold the .output files of a tasks dir into one row; json and csv list each');
  });

  it('--strict fails the run on the malformed lines', async () => {
    expect((await runCli(['sources', HOME, '--strict', '--format', 'csv'])).code).toBe(1);
  });
});

describe('fixtures/home: tables', () => {
  it('sessions: ids from directory names, event range, SessionEnd, generation (EXPECTED §1)', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['sql', 'SELECT session_id, first_event_ts, last_event_ts, events, has_session_end, generation FROM sessions ORDER BY session_id', HOME]);
    expect(value).toEqual([
      { session_id: '20260812-142207-8d3e61f0', first_event_ts: '2026-08-12T06:22:07.801Z', last_event_ts: '2026-08-12T06:35:40.002Z', events: 83, has_session_end: true, generation: 'old' },
      { session_id: '20260814-093015-c7a2e5f1', first_event_ts: '2026-08-14T01:30:15.207Z', last_event_ts: '2026-08-14T07:52:40.115Z', events: 101, has_session_end: true, generation: 'head' },
      { session_id: '20260819-183103-4f7a9c2e', first_event_ts: '2026-08-19T10:31:03.412Z', last_event_ts: '2026-08-19T10:33:40.118Z', events: 165, has_session_end: true, generation: 'head' },
      { session_id: '20260821-101500-b2d84e07', first_event_ts: '2026-08-21T02:15:00.540Z', last_event_ts: '2026-08-21T02:17:41.360Z', events: 34, has_session_end: false, generation: 'head' },
      { session_id: '3b9f02d6', first_event_ts: '2026-08-10T02:14:05.118Z', last_event_ts: '2026-08-10T02:15:48.004Z', events: 30, has_session_end: true, generation: 'old' },
    ]);
  });

  it('warn_lines: records with level and category; a 3-line message kept whole (EXPECTED §10)', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['sql', `SELECT session_id, count(*) AS records, count(*) FILTER (level = 'ERROR') AS errors, count(*) FILTER (level = 'WARN') AS warns FROM warn_lines GROUP BY 1 ORDER BY 1`, HOME]);
    expect(value).toEqual([
      { session_id: '20260819-183103-4f7a9c2e', records: 26, errors: 8, warns: 18 },
      { session_id: '20260821-101500-b2d84e07', records: 4, errors: 1, warns: 3 },
    ]);
    const { value: multi } = await runJson<Record<string, unknown>[]>(['sql', `SELECT line, end_line, category, message FROM warn_lines WHERE end_line > line`, HOME]);
    expect(multi).toEqual([{ line: 16, end_line: 18, category: 'SUBAGENT', message: '子代理 task (a0z6h3j8d) 以 error 结束，任务通知：\n  状态: error（未进入重试）\n  原因: LLM 错误: OpenAI API 错误: 429 limit_burst_rate' }]);
  });

  it('usage_ledger keeps the last row per sessionId (upsert semantics)', async () => {
    const { value } = await runJson<{ rows: number; sessions: number }[]>(['sql', 'SELECT (SELECT count(*) FROM usage_ledger_rows) AS rows, (SELECT count(*) FROM usage_ledger) AS sessions', HOME]);
    expect(value).toEqual([{ rows: 7, sessions: 6 }]);
  });

  it('usage_ledger and session_index: the later of two rows for one session is the one kept, whole', async () => {
    // usage-ledger.jsonl L1–L2 and session-index.jsonl L3–L4 hold two rows for one session each.
    const { value: ledger } = await runJson<Record<string, unknown>[]>(['sql', `SELECT session_id, ts, line, prompt_total, output, cost_usd, duration_ms, app_version FROM usage_ledger WHERE session_id = '3b9f02d6'`, HOME]);
    expect(ledger).toEqual([{ session_id: '3b9f02d6', ts: '2026-08-10T02:15:48.000Z', line: 2, prompt_total: 39010, output: 713, cost_usd: 0.0247, duration_ms: 102886, app_version: null }]);
    const { value: index } = await runJson<Record<string, unknown>[]>(['sql', `SELECT session_id, ts, line, exit_status, turns, cost_usd, (SELECT count(*) FROM session_index) AS sessions FROM session_index WHERE session_id = '20260819-183103-4f7a9c2e'`, HOME]);
    expect(index).toEqual([{ session_id: '20260819-183103-4f7a9c2e', ts: '2026-08-19T10:33:40.000Z', line: 4, exit_status: 'end_turn', turns: 2, cost_usd: 0.1968, sessions: 4 }]);
  });

  it('task_outputs: the type from the id prefix (a/s/w, docs/formats.md#task-outputs)', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['sql', 'SELECT prefix, task_type, count(*) AS files FROM task_outputs GROUP BY ALL ORDER BY 1', HOME]);
    expect(value).toEqual([
      { prefix: 'a', task_type: 'local_agent', files: 18 },
      { prefix: 's', task_type: 'local_shell', files: 1 },
      { prefix: 'w', task_type: 'local_workflow', files: 1 },
    ]);
  });

  it('events keep the envelope session id where it differs from the directory (S3 after its resume, EXPECTED §1)', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['sql', `SELECT envelope_session_id, count(*) AS n, min(line) AS first, max(line) AS last FROM events WHERE session_id = '20260814-093015-c7a2e5f1' GROUP BY 1 ORDER BY 2`, HOME]);
    expect(value).toEqual([
      { envelope_session_id: '20260814-152200-e90b3d14', n: 1, first: 101, last: 101 },
      { envelope_session_id: '20260814-093015-c7a2e5f1', n: 100, first: 1, last: 102 },
    ]);
  });

  it('subagent_lifecycle extracts the task id that joins tasks/<taskId>.output and RetryTelemetry agentId', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['sql', `SELECT DISTINCT s.task_id, t.path IS NOT NULL AS has_output, r.agent_id AS retry_agent
      FROM subagent_lifecycle s LEFT JOIN task_outputs t USING (task_id) LEFT JOIN (SELECT DISTINCT task_id, agent_id FROM retry_telemetry) r USING (task_id)
      WHERE s.session_id = '20260819-183103-4f7a9c2e' AND s.kind = 'start' ORDER BY 1`, HOME]);
    expect(value.length).toBe(6);
    expect(value.every((r) => r.has_output === true)).toBe(true);
    expect(value.filter((r) => r.retry_agent !== null).map((r) => r.retry_agent)).toContain('20260819-183103-4f7a9c2e-sub-a3f9k2m7p');
  });
});
