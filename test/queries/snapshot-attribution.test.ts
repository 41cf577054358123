import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';
import { homeDb, queryRows, type Row } from './query-cli.js';

const S2 = '20260812-142207-8d3e61f0';
const S3 = '20260814-093015-c7a2e5f1';
const S4 = '20260819-183103-4f7a9c2e';
const S5 = '20260821-101500-b2d84e07';
const ids = (session: string, ...tasks: string[]) => tasks.map((t) => `${session}-sub-${t}`).join(', ');

const row = (
  session_id: string, index: number, agents: number, agent_ids: string, tagged_rows: number, untagged_rows: number,
  tagged_chunks: number | null, untagged_chunks: number | null, verdict: string,
) => ({ session_id, index, agents, agent_ids, tagged_rows, untagged_rows, tagged_chunks, untagged_chunks, verdict });

const HOME_ROWS = [
  row(S2, 10001, 1, ids(S2, 'a4h8c2v6b'), 2, 4, null, 286, 'misattributed-to-main'),
  row(S2, 10002, 1, ids(S2, 'a4h8c2v6b'), 2, 4, null, 402, 'misattributed-to-main'),
  row(S3, 10001, 1, ids(S3, 'a5n2b8c1x'), 2, 4, null, 188, 'split'),
  row(S3, 20001, 1, ids(S3, 'a5n2b8c1x'), 2, 0, null, null, 'clean'),
  row(S4, 10001, 6, ids(S4, 'a0z6h3j8d', 'a2g7l9s4v', 'a3f9k2m7p', 'a8q1w5n0c', 'ab4r7t2y9', 'ac5e1u4i6'), 16, 26, null, 655, 'collision'),
  row(S4, 10002, 3, ids(S4, 'a2g7l9s4v', 'a3f9k2m7p', 'ab4r7t2y9'), 6, 12, null, 420, 'collision'),
  row(S4, 10003, 1, ids(S4, 'ab4r7t2y9'), 3, 8, null, 188, 'split'),
  row(S5, 10001, 1, ids(S5, 'a9d4f7h1k'), 2, 4, null, 344, 'split'),
  row(S5, 10002, 1, ids(S5, 'a9d4f7h1k'), 1, 2, null, null, 'split'),
];

describe('query snapshot-attribution on the bundled home (EXPECTED.md §9)', () => {
  let rows: Row[];
  beforeAll(async () => {
    const result = await queryRows('snapshot-attribution', [...(await homeDb())]);
    expect(result.stderr).toBe('');
    rows = result.rows;
  });
  const withVerdict = (verdict: string) => rows.filter((r) => r.verdict === verdict);

  it('one row per (session, index >= 10000) with tagged rows, ordered by session and index', () => {
    expect(rows).toEqual(HOME_ROWS);
  });

  it('collision: parallel subagents with overlapping windows at one index (S4 10001, 10002)', () => {
    expect(withVerdict('collision')).toEqual(HOME_ROWS.filter((r) => r.session_id === S4 && r.index <= 10002));
  });

  it('split: untagged provider rows at the same index inside the tagged window ±1 s', () => {
    expect(withVerdict('split')).toEqual([HOME_ROWS[2], HOME_ROWS[6], HOME_ROWS[7], HOME_ROWS[8]]);
  });

  it('clean: the summary stream with no untagged row at its index', () => {
    expect(withVerdict('clean')).toEqual([row(S3, 20001, 1, ids(S3, 'a5n2b8c1x'), 2, 0, null, null, 'clean')]);
  });

  it('misattributed-to-main: an OLD session whose provider rows sit at the main loop index 3', () => {
    expect(withVerdict('misattributed-to-main')).toEqual(HOME_ROWS.filter((r) => r.session_id === S2));
  });
});

describe('query snapshot-attribution edge cases', () => {
  const EDGES = path.join(FIXTURES, 'queries-snapshot-edges');
  const A = '20260903-120000-0c0c0003';
  const B = '20260904-120000-0d0d0004';

  it('sequential agents at one index are no collision; the window edge (+1 s) counts; tagged chunks are reported', async () => {
    const { rows, stderr } = await queryRows('snapshot-attribution', [EDGES, '--session', A]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row(A, 10001, 2, ids(A, 'a1x1x1x1x', 'a2y2y2y2y'), 4, 5, null, 70, 'split'),
      row(A, 10002, 1, ids(A, 'a1x1x1x1x'), 2, 0, 33, null, 'clean'),
    ]);
  });

  it('an older-generation stream is clean when no main-loop row falls inside it', async () => {
    const { rows } = await queryRows('snapshot-attribution', [EDGES, '--session', B]);
    expect(rows).toEqual([
      row(B, 10001, 1, ids(B, 'a3z3z3z3z'), 2, 0, null, null, 'clean'),
      row(B, 10002, 1, ids(B, 'a3z3z3z3z'), 2, 2, null, 99, 'misattributed-to-main'),
    ]);
  });

  it('--since keeps a (session, index) by its first tagged row', async () => {
    const { rows } = await queryRows('snapshot-attribution', [...(await homeDb()), '--since', '2026-08-17']);
    expect(rows).toEqual(HOME_ROWS.slice(4));
  });
});

// Audit Q1: which untagged rows count is decided per stream, and main-loop rows only inside the stream's own
// interval (fixtures/queries-snapshot-streams/README.md works out every value).
describe('query snapshot-attribution per stream', () => {
  const STREAMS = path.join(FIXTURES, 'queries-snapshot-streams');
  const OLD = '20260903-100000-cccccccc';
  const HEAD_FAILED = '20260904-100000-dddddddd';
  const RESUMED = '20260905-100000-eeeeeeee';
  const CUT_OFF = '20260906-100000-0a0a0a0a';
  const PARALLEL = '20260907-100000-0b0b0b0b';
  let rows: Row[];
  beforeAll(async () => {
    const result = await queryRows('snapshot-attribution', [STREAMS]);
    expect(result.stderr).toBe('');
    rows = result.rows;
  });
  const of = (session: string) => rows.filter((r) => r.session_id === session);

  it('older build: each turn counts its own provider rows, not the main loop\'s call nor the other turn\'s', () => {
    expect(of(OLD)).toEqual([
      row(OLD, 10001, 1, ids(OLD, 'a00000001'), 2, 2, null, 100, 'misattributed-to-main'),
      row(OLD, 10002, 1, ids(OLD, 'a00000001'), 2, 2, null, 120, 'misattributed-to-main'),
    ]);
  });

  it('HEAD: a stream that failed before the provider is clean, whatever the main loop did just before', () => {
    expect(of(HEAD_FAILED)).toEqual([row(HEAD_FAILED, 10001, 1, ids(HEAD_FAILED, 'a00000001'), 2, 0, null, null, 'clean')]);
  });

  it('resumed after an upgrade: the older build\'s streams stay misattributed-to-main beside a HEAD stream', () => {
    expect(of(RESUMED)).toEqual([
      row(RESUMED, 10001, 2, ids(RESUMED, 'a00000001', 'b00000002'), 4, 4, null, 100, 'misattributed-to-main'),
      row(RESUMED, 10002, 1, ids(RESUMED, 'a00000001'), 2, 2, null, 120, 'misattributed-to-main'),
    ]);
  });

  it('a stream cut off before its outcome runs to its sub-agent\'s Stop, not beyond', () => {
    expect(of(CUT_OFF)).toEqual([row(CUT_OFF, 10001, 1, ids(CUT_OFF, 'a1k1k1k1k'), 1, 3, null, null, 'misattributed-to-main')]);
  });

  it('a cut-off stream that runs for weeks to its Stop counts the provider rows inside it, as a short one does', async () => {
    // The same session with everything from 03.500 on 50 days later: the stream spans 1,200 hours
    // (streams over 1,000 hours are compared with every row of their session, the others by the hour).
    const file = path.join(STREAMS, 'trajectories', 'sessions', CUT_OFF, 'events.jsonl');
    const shifted = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => {
      const record = JSON.parse(line) as { timestamp: string };
      const at = Date.parse(record.timestamp);
      if (at >= Date.parse('2026-09-06T02:00:03.500Z')) record.timestamp = new Date(at + 50 * 86_400_000).toISOString();
      return record;
    });
    const tree = sessionTree(CUT_OFF, shifted);
    try {
      const { rows: long, stderr } = await queryRows('snapshot-attribution', [tree.home]);
      expect(stderr).toBe('');
      expect(long).toEqual(of(CUT_OFF));
    } finally {
      tree.cleanup();
    }
  });

  it('parallel sub-agents: a main-loop row inside two streams counts once, for the one that started last', () => {
    expect(of(PARALLEL)).toEqual([
      row(PARALLEL, 10001, 2, ids(PARALLEL, 'a2p2p2p2p', 'a3q3q3q3q'), 4, 4, null, 300, 'misattributed-to-main'),
      row(PARALLEL, 10002, 1, ids(PARALLEL, 'a3q3q3q3q'), 2, 2, null, 40, 'misattributed-to-main'),
    ]);
  });

  it('the HEAD and resumed sessions are generation head: the verdicts above do not come from the session\'s generation', async () => {
    const { value } = await runJson<Row[]>(['sql', 'SELECT session_id, generation FROM sessions ORDER BY session_id', STREAMS]);
    expect(value.map((r) => r.generation)).toEqual(['old', 'head', 'head', 'old', 'old']);
  });
});

// Audit s9 D1: a stream cut off after its fetch_sent runs to its sub-agent's Stop for the collision test too,
// not only for the main-loop rows, so which of two parallel agents sent first no longer decides the verdict.
describe('query snapshot-attribution: a hung stream collides until its agent ends', () => {
  const id = '20260901-180000-ffffffff';
  const agent = (task: string) => `${id}-sub-${task}`;
  const tagged = (ts: string, phase: string, task: string, extra: Record<string, unknown> = {}) =>
    event(id, 'StreamPhase', ts, { index: 10001, phase, agent_id: agent(task), attempt: 0, caller: 'sub-agent', model: 'm', ...extra });
  const provider = (ts: string, phase: string, extra: Record<string, unknown> = {}) =>
    event(id, 'StreamPhase', ts, { index: 10001, phase, attempt: 1, model: 'm', ...extra });
  const lifecycle = (name: string, ts: string, task: string, extra: Record<string, unknown> = {}) =>
    event(id, name, ts, { agent_id: `subagent-explore-${task}`, agent_type: 'explore', ...extra });
  // A (a00000054) sends and hangs until killed at 10:01:30.1; B (a00000055) streams 30.105-36.010 and completes.
  const tree = (aSends: string) => sessionTree(id, [
    lifecycle('SubagentStart', '2026-09-01T10:00:30.000Z', 'a00000054'),
    lifecycle('SubagentStart', '2026-09-01T10:00:30.000Z', 'a00000055'),
    tagged(aSends, 'fetch_sent', 'a00000054'),
    provider('2026-09-01T10:00:30.101Z', 'fetch_sent'),
    tagged('2026-09-01T10:00:30.105Z', 'fetch_sent', 'a00000055'),
    provider('2026-09-01T10:00:30.106Z', 'fetch_sent'),
    provider('2026-09-01T10:00:36.000Z', 'completed', { chunk_count: 300, chunk_count_kind: 'chunks' }),
    tagged('2026-09-01T10:00:36.010Z', 'completed', 'a00000055'),
    lifecycle('SubagentStop', '2026-09-01T10:00:37.000Z', 'a00000055', { elapsed_ms: 7000, status: 'completed' }),
    event(id, 'TimeoutFired', '2026-09-01T10:01:30.000Z', { index: -1, layer: 'agent_overall_timeout' }),
    lifecycle('SubagentStop', '2026-09-01T10:01:30.100Z', 'a00000054', { elapsed_ms: 60100, status: 'error' }),
  ]);
  const expected = [row(id, 10001, 2, ids(id, 'a00000054', 'a00000055'), 3, 3, null, 300, 'collision')];

  it.each([
    ['before', '2026-09-01T10:00:30.100Z'],
    ['after', '2026-09-01T10:00:30.115Z'],
  ])('collision whether the hung agent sent %s the other one', async (_, aSends) => {
    const home = tree(aSends);
    try {
      const { rows, stderr } = await queryRows('snapshot-attribution', [home.home]);
      expect(stderr).toBe('');
      expect(rows).toEqual(expected);
    } finally {
      home.cleanup();
    }
  });
});

// Spans are closed intervals: a stream that starts at the very time another one at its index ends
// overlaps it; one that starts a millisecond later follows it. Spans nested in another's collide.
describe('query snapshot-attribution: spans that touch or nest', () => {
  const id = '20260902-180000-eeeeeeee';
  const tagged = (ts: string, phase: string, task: string, index: number) =>
    event(id, 'StreamPhase', ts, { index, phase, agent_id: `${id}-sub-${task}`, attempt: 0, caller: 'sub-agent', model: 'm' });
  const home = sessionTree(id, [
    // 10001: A ends at 10:00:05.000, B starts then.
    tagged('2026-09-02T10:00:00.000Z', 'fetch_sent', 'a00000061', 10001),
    tagged('2026-09-02T10:00:05.000Z', 'completed', 'a00000061', 10001),
    tagged('2026-09-02T10:00:05.000Z', 'fetch_sent', 'a00000062', 10001),
    tagged('2026-09-02T10:00:09.000Z', 'completed', 'a00000062', 10001),
    // 10002: B starts a millisecond after A ends.
    tagged('2026-09-02T10:01:00.000Z', 'fetch_sent', 'a00000061', 10002),
    tagged('2026-09-02T10:01:05.000Z', 'completed', 'a00000061', 10002),
    tagged('2026-09-02T10:01:05.001Z', 'fetch_sent', 'a00000062', 10002),
    tagged('2026-09-02T10:01:09.000Z', 'completed', 'a00000062', 10002),
    // 10003: A spans 10:02:00-10:02:30, C 10:02:01-10:02:02, B 10:02:10-10:02:20 (inside A, after C ended).
    tagged('2026-09-02T10:02:00.000Z', 'fetch_sent', 'a00000061', 10003),
    tagged('2026-09-02T10:02:30.000Z', 'completed', 'a00000061', 10003),
    tagged('2026-09-02T10:02:01.000Z', 'fetch_sent', 'a00000063', 10003),
    tagged('2026-09-02T10:02:02.000Z', 'completed', 'a00000063', 10003),
    tagged('2026-09-02T10:02:10.000Z', 'fetch_sent', 'a00000062', 10003),
    tagged('2026-09-02T10:02:20.000Z', 'completed', 'a00000062', 10003),
  ]);
  afterAll(home.cleanup);

  it('touching spans collide, spans a millisecond apart do not, a nested span collides with the one around it', async () => {
    const { rows, stderr } = await queryRows('snapshot-attribution', [home.home]);
    expect(stderr).toBe('');
    expect(rows).toEqual([
      row(id, 10001, 2, ids(id, 'a00000061', 'a00000062'), 4, 0, null, null, 'collision'),
      row(id, 10002, 2, ids(id, 'a00000061', 'a00000062'), 4, 0, null, null, 'clean'),
      row(id, 10003, 3, ids(id, 'a00000061', 'a00000062', 'a00000063'), 6, 0, null, null, 'collision'),
    ]);
  });
});
