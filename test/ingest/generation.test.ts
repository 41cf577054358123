import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJson, tempDir } from '../helpers/run-cli.js';

// sessions.generation (formats doc §14) from key presence: one session dir per HEAD-only marker,
// each holding nothing else that would give it away; OLD sessions, whose stream rows lack every
// marker; and directories with no events at all (§1.2: an upload leaves metadata.json and .uploaded).
const line = (session: string, event: string, data: object) =>
  `${JSON.stringify({ event, session_id: session, timestamp: '2026-08-20T10:05:00.000Z', data })}\n`;
const start = (session: string) => line(session, 'SessionStart', { source: 'startup' });

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
  '20260820-100012-00000012': { 'events.jsonl': line('20260820-100012-00000012', 'TimeoutFired', { index: 3, layer: 'stream_idle_timeout', threshold_ms: 90000 }) },
  // unknown: nothing tells the generations apart
  '20260820-100013-00000013': { 'events.jsonl': start('20260820-100013-00000013') },
  // no events: an uploaded session and one with only its trajectory
  '20260820-100014-00000014': { 'metadata.json': '{}', '.uploaded': JSON.stringify({ confirmed_at: '2026-08-20T11:00:00.000Z', session_id: '20260820-100014-00000014' }) },
  '20260820-100015-00000015': { 'session.traj': JSON.stringify({ trajectory: [], metadata: {} }) },
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

  it('finds HEAD by any one of its markers, OLD by stream rows without them, and unknown otherwise', () => {
    const { value, run } = runJson<{ session_id: string; events: number; generation: string }[]>(
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
      ['12', 1, 'old'],
      ['13', 1, 'unknown'],
      ['14', 0, 'unknown'],
      ['15', 0, 'unknown'],
    ]);
  });

  it('keeps a session directory with nothing trajaudit reads as a sessions row, and lists its files as skipped', () => {
    const { value, run } = runJson<{ path: string; reason: string }[]>(['sources', home, '--section', 'skipped']);
    expect(run.code).toBe(0);
    expect(value).toEqual([
      { path: 'trajectories/sessions/20260820-100014-00000014/.uploaded', reason: 'not a format trajaudit reads' },
      { path: 'trajectories/sessions/20260820-100014-00000014/metadata.json', reason: 'not a format trajaudit reads' },
      { path: 'trajectories/sessions/20260820-100015-00000015/session.traj', reason: 'not a format trajaudit reads' },
    ]);
  });
});
