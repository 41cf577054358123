import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// Single-document files that do not parse: a pretty-printed session-summary.json cut off by a
// crash, and a heartbeat.txt with two objects run together. Every unread line is counted and listed.
const HOME = path.join(FIXTURES, 'broken-documents');
const SESSION = 'trajectories/sessions/20260815-091500-0bad0d0c';

interface Ledger {
  files: { path: string; lines: number; valid: number; blank: number; malformed: number }[];
  problems: { where: string; byte_offset: number; kind: string; reason: string; excerpt: string }[];
  totals: Record<string, number>;
}

describe('fixtures/broken-documents: a document that does not parse lists each of its lines', async () => {
  const { value, run } = await runJson<Ledger>(['sources', HOME]);

  it('counts them, and the invariant holds', () => {
    expect(run.code).toBe(0);
    expect(value.files.map((f) => [f.path, f.lines, f.valid, f.blank, f.malformed])).toEqual([
      [`${SESSION}/events.jsonl`, 1, 1, 0, 0],
      [`${SESSION}/heartbeat.txt`, 1, 0, 0, 1],
      [`${SESSION}/session-summary.json`, 4, 0, 1, 3],
    ]);
    expect(value.totals.malformed).toBe(value.problems.length);
  });

  it('lists every malformed line; the one the parser stopped at says why, the truncated last line is truncated-tail', () => {
    expect(value.problems.map((p) => [p.where, p.byte_offset, p.kind, p.excerpt])).toEqual([
      [`${SESSION}/heartbeat.txt:1`, 0, 'malformed', expect.stringMatching(/^\{"ts":"2026-08-15T09:15:01.000Z","session_id":"20260815-091500-0bad0d0c"\}\{/)],
      [`${SESSION}/session-summary.json:1`, 0, 'malformed', '{'],
      [`${SESSION}/session-summary.json:2`, 2, 'malformed', '  "session_id": "20260815-091500-0bad0d0c",'],
      [`${SESSION}/session-summary.json:4`, 47, 'truncated-tail', '  "exit_status": "err'],
    ]);
    expect(value.problems[0].reason).toMatch(/two JSON values on one line: interleaved writers\?\); the whole document \(1 line\) is unread$/);
    expect(value.problems[1].reason).toMatch(/^part of a JSON document that is unread \(line 4: Unterminated string/);
    expect(value.problems[3].reason).toMatch(/^Unterminated string.*; the whole document \(3 lines\) is unread$/);
  });
});
