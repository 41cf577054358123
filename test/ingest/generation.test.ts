import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

// sessions.generation (docs/formats.md#old-and-head-builds) from key presence: one session dir per HEAD-only trait
// (08 and 09 also hold an OLD-shaped StreamPhase: HEAD wins); one per OLD-only trait, a key HEAD
// always writes that is missing; sessions whose rows both generations write alike (unknown, not
// old); and directories with no events at all (docs/formats.md#what-may-be-missing: an upload leaves metadata.json and .uploaded).
const line = (session: string, event: string, data: object) =>
  `${JSON.stringify({ event, session_id: session, timestamp: '2026-08-20T10:05:00.000Z', data })}\n`;
const start = (session: string) => line(session, 'SessionStart', { source: 'startup' });
const id = (n: number) => `20260820-1000${n}-000000${n}`;

// The HEAD example of docs/formats.md#example-lines, cut after a sub-agent's first 429: the provider-side
// rows carry the derived attempt and the sub-agent's index 10001 without agent_id.
const DOC_HEAD_EXAMPLE = `{"event":"SessionStart","session_id":"20260730-183103-5e334145","timestamp":"2026-07-30T10:31:03.412Z","cwd":"/home/u/proj","data":{"source":"startup","model":"glm-5.2","permission_mode":"default"}}
{"event":"BeforeModel","session_id":"20260730-183103-5e334145","timestamp":"2026-07-30T10:34:50.101Z","cwd":"/home/u/proj","data":{"model":"glm-5.2","index":4,"msg_count":9}}
{"event":"SubagentStart","session_id":"20260730-183103-5e334145","timestamp":"2026-07-30T10:35:01.007Z","cwd":"/home/u/proj","data":{"agent_id":"subagent-explore-a7k2m9q0x","agent_type":"explore","description":"审计 fallback.ts 的重试路径"}}
{"event":"StreamPhase","session_id":"20260730-183103-5e334145","timestamp":"2026-07-30T10:35:01.020Z","data":{"index":10001,"phase":"fetch_sent","agent_id":"20260730-183103-5e334145-sub-a7k2m9q0x","attempt":0,"caller":"sub-agent","model":"glm-5.2"}}
{"event":"StreamPhase","session_id":"20260730-183103-5e334145","timestamp":"2026-07-30T10:35:01.022Z","data":{"index":10001,"phase":"fetch_sent","attempt":1,"model":"glm-5.2"}}
{"event":"StreamPhase","session_id":"20260730-183103-5e334145","timestamp":"2026-07-30T10:35:01.910Z","data":{"index":10001,"phase":"error","attempt":1,"http_status":429,"model":"glm-5.2"}}
`;
const SUBAGENT_START = { agent_id: 'subagent-explore-a7k2m9q0x', agent_type: 'explore', description: 'x' };

const SNAPSHOT_OLD = { last_known_phase: 'sse_consuming', http_status_received: true, chunks_received: 12, timeouts_fired: [] };
const ACTIVE_OLD = { index: 3, model: 'm', phase: 'sse_consuming', elapsed_ms: 1000, last_progress_ms: 10, chunks: 4, empty_chunks: 0, timeouts_fired: [] };

/** Session id → its files. Ids sort in the order of this list. */
const SESSIONS: Record<string, Record<string, string>> = {
  // HEAD, by one marker each
  '20260820-100001-00000001': { 'events.jsonl': start('20260820-100001-00000001') + line('20260820-100001-00000001', 'ModelCallUnpaired', { index: 4, model: 'm', elapsed_ms: 300000, stream_snapshot: { ...SNAPSHOT_OLD, chunk_count: 12, chunk_count_kind: 'chunks', snapshot_age_ms: 1200 } }) },
  '20260820-100002-00000002': { 'events.jsonl': line('20260820-100002-00000002', 'TimeoutFired', { index: 3, layer: 'fetch_absolute_timeout', threshold_ms: 600000 }) },
  '20260820-100003-00000003': { 'events.jsonl': line('20260820-100003-00000003', 'TimeoutFired', { index: 3, layer: 'watchdog_kill', threshold_ms: 600000 }) },
  '20260820-100004-00000004': { 'events.jsonl': line('20260820-100004-00000004', 'StreamStall', { index: 3, no_content_progress_ms: 30000, total_chunks: 10, empty_chunks: 0, tier_ms: 30000 }) },
  '20260820-100005-00000005': { 'events.jsonl': line('20260820-100005-00000005', 'StreamStall', { index: 3, no_content_progress_ms: 41000, total_chunks: 10, empty_chunks: 0, summary: true }) },
  '20260820-100006-00000006': { 'events.jsonl': line('20260820-100006-00000006', 'WatchdogKill', { index: 3, phase: 'sse_consuming', total_chunks: 0, empty_chunks: 0, snapshot_age_ms: 9000, snapshot_stale: true }) },
  '20260820-100007-00000007': { 'events.jsonl': line('20260820-100007-00000007', 'RetryTelemetry', { type: 'retry', attempt: 1, delayMs: 500, error: '429', discardedThinkingChars: 12 }) },
  '20260820-100008-00000008': {
    'events.jsonl': line('20260820-100008-00000008', 'StreamPhase', { index: 3, phase: 'fetch_sent', model: 'm' }),
    'heartbeat.txt': JSON.stringify({ ts: '2026-08-20T10:05:10.000Z', session_id: '20260820-100008-00000008', event_loop_lag_ms: 1, active_request: { ...ACTIVE_OLD, chunk_count: 4, chunk_count_kind: 'chunks', snapshot_age_ms: 100 } }),
  },
  '20260820-100009-00000009': {
    'events.jsonl': line('20260820-100009-00000009', 'StreamPhase', { index: 3, phase: 'fetch_sent', model: 'm' }),
    'session-summary.json': JSON.stringify({ session_id: '20260820-100009-00000009', exit_status: 'end_turn', abnormal: false, real_errors: 0, pathological: [] }, null, 2),
  },
  // OLD: stream rows and an active request, none with a HEAD key
  '20260820-100010-00000010': {
    'events.jsonl': line('20260820-100010-00000010', 'ModelCallUnpaired', { index: 4, model: 'm', elapsed_ms: 300000, stream_snapshot: SNAPSHOT_OLD }),
  },
  '20260820-100011-00000011': {
    'events.jsonl': start('20260820-100011-00000011'),
    'heartbeat.txt': JSON.stringify({ ts: '2026-08-20T10:05:10.000Z', session_id: '20260820-100011-00000011', event_loop_lag_ms: 1, active_request: ACTIVE_OLD }),
  },
  // unknown: nothing tells the generations apart (a layer both write, a plain SessionStart)
  '20260820-100012-00000012': { 'events.jsonl': line('20260820-100012-00000012', 'TimeoutFired', { index: 3, layer: 'idle_timeout', threshold_ms: 90000 }) },
  '20260820-100013-00000013': { 'events.jsonl': start('20260820-100013-00000013') },
  // no events: an uploaded session and one with only its trajectory
  '20260820-100014-00000014': { 'metadata.json': '{}', '.uploaded': JSON.stringify({ confirmed_at: '2026-08-20T11:00:00.000Z', session_id: '20260820-100014-00000014' }) },
  '20260820-100015-00000015': { 'session.traj': JSON.stringify({ trajectory: [], metadata: {} }) },
  // HEAD, by the traits HEAD rows carry without any marker key
  [id(16)]: { 'events.jsonl': DOC_HEAD_EXAMPLE },
  // killed during its first main-loop stream: provider rows with the derived attempt
  [id(17)]: { 'events.jsonl': line(id(17), 'StreamPhase', { index: 1, phase: 'fetch_sent', attempt: 1, model: 'm' }) + line(id(17), 'StreamPhase', { index: 1, phase: 'headers_received', attempt: 1, http_status: 200, ttfb_ms: 800, model: 'm' }) },
  [id(18)]: { 'events.jsonl': line(id(18), 'HttpConnected', { index: 10002, status: 200, model: 'm' }) },
  [id(19)]: { 'heartbeat.txt': JSON.stringify({ ts: '2026-08-20T10:05:10.000Z', session_id: id(19), event_loop_lag_ms: 1, active_request: { ...ACTIVE_OLD, index: 10001, active_count: 2 } }) },
  [id(20)]: {
    'events.jsonl': start(id(20)),
    'warn.log': `[2026-08-20T10:52:00.410Z] [WARN] [TRACE] 会话 ${id(20)} 检出 2 条[高]级异常：subagent_execution_outcome, unpaired_before_model。详情：bun scripts/trace-digest.ts ${id(20)}\n`,
  },
  // OLD, by a key HEAD always writes that is missing
  [id(21)]: { 'events.jsonl': line(id(21), 'StreamPhase', { index: 1, phase: 'fetch_sent', model: 'm' }) + line(id(21), 'StreamPhase', { index: 1, phase: 'headers_received', http_status: 200, ttfb_ms: 800, model: 'm' }) },
  [id(22)]: { 'events.jsonl': line(id(22), 'RetryTelemetry', { type: 'retry', model: 'm', attempt: 1, delayMs: 500, error: '429', phase: 'stream', reopenReason: 'rate_limit' }) },
  [id(23)]: { 'events.jsonl': line(id(23), 'RetryTelemetry', { type: 'stream_completed', provider: 'openai', totalEvents: 1183, elapsedMs: 31877, model: 'm' }) },
  [id(24)]: { 'events.jsonl': line(id(24), 'StreamStall', { index: 3, no_content_progress_ms: 41000, total_chunks: 10, empty_chunks: 0 }) },
  [id(25)]: { 'events.jsonl': line(id(25), 'WatchdogKill', { index: 3, phase: 'sse_consuming', last_content_progress_ms: 1, total_chunks: 0, empty_chunks: 0, elapsed_ms: 600000, model: 'm' }) },
  [id(26)]: {
    'events.jsonl': start(id(26)),
    'session-summary.json': JSON.stringify({ session_id: id(26), exit_status: 'end_turn', abnormal: false, real_errors: 0 }, null, 2),
  },
  // unknown: a HEAD sub-agent whose only retry row is a fallback, and a sub-agent's own StreamPhase
  // (its explicit attempt is written by both)
  [id(27)]: { 'events.jsonl': line(id(27), 'SubagentStart', SUBAGENT_START) + line(id(27), 'RetryTelemetry', { type: 'fallback', model: 'm', fallbackModel: 'f', error: '主模型失败', agentId: `${id(27)}-sub-a7k2m9q0x` }) },
  [id(28)]: { 'events.jsonl': line(id(28), 'StreamPhase', { index: 10001, phase: 'fetch_sent', agent_id: `${id(28)}-sub-a7k2m9q0x`, attempt: 0, caller: 'sub-agent', model: 'm' }) },
};

describe('sessions: generation by key presence, and every session directory on disk', () => {
  const work = tempDir();
  afterAll(work.cleanup);
  const home = path.join(work.dir, 'home');
  for (const [session, files] of Object.entries(SESSIONS)) {
    const dir = path.join(home, 'trajectories', 'sessions', session);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  }

  it('finds HEAD by any one of its traits, OLD by a key HEAD always writes going missing, and unknown otherwise', async () => {
    const { value, run } = await runJson<{ session_id: string; events: number; generation: string }[]>(
      ['sql', 'SELECT session_id, events, generation FROM sessions ORDER BY session_id', home],
    );
    expect(run.code).toBe(0);
    expect(value.map((r) => [r.session_id.slice(-2), r.events, r.generation])).toEqual([
      ['01', 2, 'head'],
      ['02', 1, 'head'],
      ['03', 1, 'head'],
      ['04', 1, 'head'],
      ['05', 1, 'head'],
      ['06', 1, 'head'],
      ['07', 1, 'head'],
      ['08', 1, 'head'],
      ['09', 1, 'head'],
      ['10', 1, 'old'],
      ['11', 1, 'old'],
      ['12', 1, 'unknown'],
      ['13', 1, 'unknown'],
      ['14', 0, 'unknown'],
      ['15', 0, 'unknown'],
      ['16', 6, 'head'],
      ['17', 2, 'head'],
      ['18', 1, 'head'],
      ['19', 0, 'head'],
      ['20', 1, 'head'],
      ['21', 2, 'old'],
      ['22', 1, 'old'],
      ['23', 1, 'old'],
      ['24', 1, 'old'],
      ['25', 1, 'old'],
      ['26', 1, 'old'],
      ['27', 2, 'unknown'],
      ['28', 1, 'unknown'],
    ]);
  });

  it('keeps a session directory with nothing trajaudit reads as a sessions row, and lists its files as skipped', async () => {
    const { value, run } = await runJson<{ path: string; reason: string }[]>(['sources', home, '--section', 'skipped']);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      { path: 'trajectories/sessions/20260820-100014-00000014/.uploaded', reason: 'not a format trajaudit reads' },
      { path: 'trajectories/sessions/20260820-100014-00000014/metadata.json', reason: 'not a format trajaudit reads' },
      { path: 'trajectories/sessions/20260820-100015-00000015/session.traj', reason: 'not a format trajaudit reads' },
    ]);
  });
});
