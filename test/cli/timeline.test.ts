import fs from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

// Expected rows worked out from the fixture files (fixtures/home/EXPECTED.md §7, §10;
// fixtures/incident-evidence-fallbacks/README.md).
const HOME = path.join(FIXTURES, 'home');
const FALLBACKS = path.join(FIXTURES, 'incident-evidence-fallbacks');
const S4 = 'trajectories/sessions/20260819-183103-4f7a9c2e';
const FB = 'trajectories/sessions/20260901-200000-0badcafe';

interface Row {
  ts: string | null; delta_ms: number | null; source: string; file: string; line: number;
  event: string; agent: string | null; index: number | null; summary: string;
}
const where = (rows: Row[]) => rows.map((r) => `${r.file.split('/').pop()}:${r.line}`);

// Load the home once; each timeline run then reads the database as it is (no re-ingest).
const scratch = tempDir('trajaudit-timeline-');
const DB = path.join(scratch.dir, 'home.duckdb');
const home = ['--db', DB];
beforeAll(async () => {
  const load = await runCli(['load', HOME, '--db', DB, '--quiet']);
  if (load.code !== 0) throw new Error(load.stderr);
});
afterAll(() => scratch.cleanup());

describe('trajaudit timeline', () => {
  it('merges events, warn.log and errors.jsonl in time, source, line order with deltas', async () => {
    const { value, run } = await runJson<Row[]>(['timeline', '0badcafe', FALLBACKS, '--around', '2026-09-01T12:00:02.400Z', '--window', '3ms']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(value).toEqual([
      { ts: '2026-09-01T12:00:02.400Z', delta_ms: null, source: 'warn', file: `${FB}/warn.log`, line: 3, event: '[ERROR] AGENT_LOOP', agent: null, index: null, summary: 'LLM 错误: 503 Service Unavailable' },
      { ts: '2026-09-01T12:00:02.401Z', delta_ms: 1, source: 'errors', file: `${FB}/errors.jsonl`, line: 1, event: 'Error', agent: null, index: 1, summary: 'phase=stream error="503 Service Unavailable" context={"kind":"network","willRetry":false}' },
      { ts: '2026-09-01T12:00:02.403Z', delta_ms: 2, source: 'events', file: `${FB}/events.jsonl`, line: 9, event: 'SubagentStop', agent: 'subagent-task-c2d3e4f5g', index: null, summary: 'status=error agent_type=task elapsed_ms=403 output_tokens=0 input_tokens=0 turns=1' },
      { ts: '2026-09-01T12:00:02.403Z', delta_ms: 0, source: 'warn', file: `${FB}/warn.log`, line: 4, event: '[WARN] SUBAGENT', agent: 'subagent-task-c2d3e4f5g', index: null, summary: '子代理 task (c2d3e4f5g) 以 error 结束' },
    ]);
  });

  it('shows the whole incident session: every valid events row, every warn record', async () => {
    const { value, run } = await runJson<Row[]>(['timeline', '4f7a9c2e', ...home]);
    expect(run.stderr).toBe(''); // over a --db as it is: the load's notice is not repeated
    expect(value.filter((r) => r.source === 'events').length).toBe(165);
    expect(value.filter((r) => r.source === 'warn').length).toBe(26);
    expect(value.filter((r) => r.source === 'errors').length).toBe(0);
    expect(value[0]).toEqual({ ts: '2026-08-19T10:31:03.412Z', delta_ms: null, source: 'events', file: `${S4}/events.jsonl`, line: 1, event: 'SessionStart', agent: null, index: null, summary: 'source=startup model=glm-5.2 permission_mode=default' });
    const sorted = [...value].sort((a, b) => (a.ts! < b.ts! ? -1 : a.ts! > b.ts! ? 1 : 0));
    expect(value.map((r) => r.ts)).toEqual(sorted.map((r) => r.ts));
  });

  it('--agent takes any id form and keeps its rows plus the untagged stream rows at its index', async () => {
    const forms = ['a8q1w5n0c', 'subagent-explore-a8q1w5n0c', '20260819-183103-4f7a9c2e-sub-a8q1w5n0c'];
    const runs: Row[][] = [];
    for (const f of forms) runs.push((await runJson<Row[]>(['timeline', '20260819', ...home, '--agent', f])).value);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(where(runs[0])).toEqual([
      'events.jsonl:19', 'events.jsonl:25', 'events.jsonl:26', 'events.jsonl:27', 'events.jsonl:29', 'events.jsonl:31',
      'events.jsonl:33', 'events.jsonl:35', 'events.jsonl:36', 'events.jsonl:37', 'events.jsonl:38', 'events.jsonl:39',
      'events.jsonl:40', 'warn.log:4', 'events.jsonl:41', 'events.jsonl:42', 'warn.log:6',
    ]);
    const own = runs[0].filter((r) => r.agent !== null);
    expect(where(own)).toEqual(['events.jsonl:19', 'events.jsonl:26', 'warn.log:4', 'events.jsonl:41', 'events.jsonl:42', 'warn.log:6']);
    expect(new Set(own.map((r) => r.agent))).toEqual(new Set(['subagent-explore-a8q1w5n0c']));
    expect(runs[0].at(-3)).toEqual({
      ts: '2026-08-19T10:31:27.120Z', delta_ms: 1, source: 'events', file: `${S4}/events.jsonl`, line: 41, event: 'StreamPhase',
      agent: 'subagent-explore-a8q1w5n0c', index: 10001,
      summary: 'phase=error attempt=1 error="LLM 错误: OpenAI API 错误: 429 limit_burst_rate" caller=sub-agent model=glm-5.2 elapsed_ms=806',
    });
  });

  it('--event filters by log level, category or event name (repeatable)', async () => {
    const errors = (await runJson<Row[]>(['timeline', '4f7a9c2e', ...home, '--event', 'ERROR'])).value;
    expect(errors.map((r) => `${r.line} ${r.event}`)).toEqual([
      '2 [ERROR] LLM:OPENAI', '5 [ERROR] AGENT_LOOP', '7 [ERROR] LLM:OPENAI', '10 [ERROR] LLM:OPENAI',
      '13 [ERROR] LLM:OPENAI', '15 [ERROR] AGENT_LOOP', '20 [ERROR] LLM:OPENAI', '22 [ERROR] LLM:OPENAI',
    ]);
    const stops = (await runJson<Row[]>(['timeline', '4f7a9c2e', ...home, '--event', 'SubagentStop', '--event', 'AGENT_LOOP'])).value;
    expect(where(stops)).toEqual(['warn.log:5', 'events.jsonl:42', 'warn.log:15', 'events.jsonl:52', 'events.jsonl:125', 'events.jsonl:132', 'events.jsonl:140', 'events.jsonl:145']);
  });

  it('prints a table with file:line and every summary whole on a pipe, as JSON has it', async () => {
    const run = await runCli(['timeline', '0badcafe', FALLBACKS, '--agent', 'subagent-task-c2d3e4f5g']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    // What is the same on every row is said once under the table, not in a column: the agent, the
    // index, and the date and dir that the times and file:line values share.
    expect(lines[1]).toMatch(/^│ time +│ delta_ms │ source │ file:line +│ event +│ summary +│$/);
    expect(lines[3]).toContain('│ 12:00:02.000Z │     NULL │ events │ events.jsonl:7 │ SubagentStart   │ agent_type=task ');
    expect(lines[5]).toContain('│ 12:00:02.403Z │        0 │ warn   │ warn.log:4     │');
    expect(run.stdout.endsWith(`(3 rows)\nsame on every row: date=2026-09-01, dir=${FB}/, agent=subagent-task-c2d3e4f5g, index=NULL\n`)).toBe(true);
    // The example of docs/timeline.md: every summary of the table (one line per row on a pipe) is the JSON one.
    const args = ['timeline', '20260819', ...home, '--around', '2026-08-19T10:31:28Z', '--window', '2s'];
    const summaries = (await runJson<Row[]>(args)).value.map((r) => r.summary);
    const cells = (await runCli(args)).stdout.split('\n').filter((line) => /^│ \d\d:/.test(line)).map((line) => line.split(' │ ').pop()!.replace(/ *│$/, ''));
    expect(summaries.some((s) => s.length > 100)).toBe(true);
    expect(cells).toEqual(summaries.map((s) => s.trimEnd()));
    // Fitted to a terminal, a summary is cut with … to the room its column has, on one line.
    const fitted = (await runCli(args, { env: { COLUMNS: '160' } })).stdout;
    expect(fitted.startsWith('┌')).toBe(true);
    expect(fitted).toContain('…');
    for (const line of fitted.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(160);
    const json = (await runJson<Row[]>(['timeline', '4f7a9c2e', ...home, '--event', 'AfterModelRaw'])).value[0].summary;
    expect(json.startsWith('model=glm-5.2 stop_reason=tool_use usage={"input_tokens":19342,"output_tokens":866,"cache_read":14336,"cache_creation":0} content_types=[')).toBe(true);
  });

  it('a summary past 2,000 characters shows its start in the table and says how much more json and md show', async () => {
    const prompt = `${'x'.repeat(2500)}`;
    const { home: tree, cleanup } = sessionTree('20260901-120000-feedf00d', [
      event('20260901-120000-feedf00d', 'UserPromptSubmit', '2026-09-01T12:00:00.000Z', { prompt }),
    ]);
    try {
      const table = (await runCli(['timeline', 'feedf00d', tree])).stdout;
      expect(table).toContain(` prompt=${'x'.repeat(1993)} … (507 more characters; --format json or md shows the whole summary) │`);
      expect((await runJson<Row[]>(['timeline', 'feedf00d', tree])).value[0].summary).toBe(`prompt=${prompt}`);
      expect((await runCli(['timeline', 'feedf00d', tree, '--format', 'md'])).stdout).toContain(`prompt=${prompt} |`);
    } finally {
      cleanup();
    }
  });

  it('exits 2 listing the candidates for an ambiguous session, and for an unknown one', async () => {
    const ambiguous = await runCli(['timeline', '2026081', ...home]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toBe(`trajaudit: session "2026081" is ambiguous; it matches:\n  20260812-142207-8d3e61f0\n  20260814-093015-c7a2e5f1\n  20260819-183103-4f7a9c2e\npass more of the id\n`);
    const unknown = await runCli(['timeline', 'deadbeef', FALLBACKS]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('trajaudit: no session matches "deadbeef"; list them with: trajaudit sql "SELECT source, session_id FROM agent_sessions"\n');
  });

  it('exits 2 for an unknown agent and for a bad --around or --window', async () => {
    const agent = await runCli(['timeline', '0badcafe', FALLBACKS, '--agent', 'zzzzzzzzz']);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toBe(
      'trajaudit: no subagent "zzzzzzzzz" in session 20260901-200000-0badcafe; its agents:\n' +
        '  subagent-explore-b1c2d3e4f\n  subagent-explore-f5g6h7i8j\n  subagent-plan-d3e4f5g6h\n  subagent-task-c2d3e4f5g\n  subagent-verify-e4f5g6h7i\n',
    );
    expect((await runCli(['timeline', '0badcafe', FALLBACKS, '--around', 'noon'])).code).toBe(2);
    const window = await runCli(['timeline', '0badcafe', FALLBACKS, '--around', '2026-09-01T12:00:02Z', '--window', 'soon']);
    expect(window.code).toBe(2);
    expect(window.stderr).toBe('trajaudit: --window "soon" is not a duration: use e.g. 30s, 250ms, 2m\n');
    const huge = `${'9'.repeat(400)}s`;
    expect(await runCli(['timeline', '0badcafe', FALLBACKS, '--around', '2026-09-01T12:00:02Z', '--window', huge])).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: --window "${huge}" is too long to be a duration: use e.g. 30s, 250ms, 2m (3650000d spans every time there is)\n`,
    });
  });

  it('exits 2 for an --event name no row of the session has (a typo, the wrong case), listing the names it has', async () => {
    const names = 'its names: event names Error, HttpConnected, PreToolUse, RetryTelemetry, SessionEnd, SessionStart, StreamPhase, SubagentStart, SubagentStop, TimeoutFired; ' +
      'warn.log levels and categories AGENT_LOOP, ERROR, LLM:OPENAI, SUBAGENT, WARN\n';
    const typo = await runCli(['timeline', '0badcafe', FALLBACKS, '--event', 'SubagentStop', '--event', 'SubagentStp']);
    expect([typo.code, typo.stdout, typo.stderr]).toEqual([2, '', `trajaudit: --event "SubagentStp" matches no row of session 20260901-200000-0badcafe (names are exact); did you mean "SubagentStop"? ${names}`]);
    const lower = await runCli(['timeline', '0badcafe', FALLBACKS, '--event', 'subagentstop']);
    expect([lower.code, lower.stderr]).toEqual([2, `trajaudit: --event "subagentstop" matches no row of session 20260901-200000-0badcafe (names are exact); did you mean "SubagentStop"? ${names}`]);
  });

  it('an --event the session has gives (no rows) when --agent or --around leaves none of it: that answer is real', async () => {
    const { value, run } = await runJson<Row[]>(['timeline', '0badcafe', FALLBACKS, '--agent', 'subagent-verify-e4f5g6h7i', '--event', 'TimeoutFired']);
    expect([run.code, run.stderr, value]).toEqual([0, '', []]);
  });

  it('exits 2 for --window without --around, which it would otherwise ignore', async () => {
    const run = await runCli(['timeline', '0badcafe', FALLBACKS, '--window', '10ms']);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', 'trajaudit: --window 10ms needs --around T: it is the half-width of the window around that time\n']);
  });
});


describe('a session id that is also another session\'s 8-hex end', () => {
  it('is that session, and a line on stderr names the other', async () => {
    const { dir, cleanup } = tempDir();
    try {
      fs.cpSync(path.join(FIXTURES, 'home'), path.join(dir, 'home'), { recursive: true });
      const own = path.join(dir, 'home/trajectories/sessions/4f7a9c2e');
      fs.mkdirSync(own);
      fs.writeFileSync(path.join(own, 'events.jsonl'), '{"event":"SessionStart","session_id":"4f7a9c2e","timestamp":"2026-08-19T10:31:03.412Z","data":{}}\n');
      const { value, run } = await runJson<{ event: string }[]>(['timeline', '4f7a9c2e', path.join(dir, 'home')]);
      expect(value.map((r) => r.event)).toEqual(['SessionStart']);
      expect(run.stderr).toContain('trajaudit: session "4f7a9c2e" is that session\'s full id, and also the start or end of another (20260819-183103-4f7a9c2e); pass the full id to mean it\n');
    } finally {
      cleanup();
    }
  });
});
