// event_fields (the payload fields typed at load) against the same fields parsed out of `data` at
// query time, as the views did before it: on every sid-code fixture, row by row and column by
// column, the load must give what the JSON says (issue 24: results identical before and after).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, fixtureDb, runJson, tempDir } from '../helpers/run-cli.js';

const HEAD_KEYS = `['chunk_count', 'discardedChars', 'discardedThinkingChars', 'probeDecision']`;
const int = (key: string) => `json_integer(data->'${key}')`;
const text = (key: string) => `(data->>'${key}')`;
const RETRY = `event = 'RetryTelemetry'`;
const PHASE = `event = 'StreamPhase'`;
const SUBAGENT = `event IN ('SubagentStart', 'SubagentStop')`;
const TOOL = `event IN ('PostToolUse', 'PostToolUseFailure')`;

/** Each column's value as a query read it from `data` before the load typed it (the old views' SQL). */
const REFERENCE: Record<string, string> = {
  attempt: `CASE WHEN ${RETRY} OR ${PHASE} THEN ${int('attempt')} END`,
  delay_ms: `CASE WHEN ${RETRY} THEN ${int('delayMs')} END`,
  remaining_ms: `CASE WHEN ${RETRY} THEN ${int('remainingMs')} END`,
  model: `CASE WHEN ${RETRY} OR ${PHASE} THEN ${text('model')} END`,
  error: `CASE WHEN ${RETRY} OR ${PHASE} THEN ${text('error')} END`,
  reopen_reason: `CASE WHEN ${RETRY} THEN ${text('reopenReason')} END`,
  discarded_chars: `CASE WHEN ${RETRY} THEN ${int('discardedChars')} WHEN event = 'StreamRestart' THEN ${int('discarded_chars')} END`,
  discarded_thinking_chars: `CASE WHEN ${RETRY} THEN ${int('discardedThinkingChars')} WHEN event = 'StreamRestart' THEN ${int('discarded_thinking_chars')} END`,
  probe_decision: `CASE WHEN ${RETRY} THEN ${text('probeDecision')} END`,
  provider: `CASE WHEN ${RETRY} THEN ${text('provider')} END`,
  fallback_model: `CASE WHEN ${RETRY} THEN ${text('fallbackModel')} END`,
  total_events: `CASE WHEN ${RETRY} THEN ${int('totalEvents')} END`,
  elapsed_ms: `CASE WHEN ${RETRY} THEN ${int('elapsedMs')} WHEN ${PHASE} OR ${SUBAGENT} THEN ${int('elapsed_ms')} END`,
  ttft_ms: `CASE WHEN ${RETRY} THEN ${int('ttftMs')} END`,
  timeout_ms: `CASE WHEN ${RETRY} THEN ${int('timeoutMs')} END`,
  gap_ms: `CASE WHEN ${RETRY} THEN ${int('gapMs')} END`,
  caller: `CASE WHEN ${PHASE} THEN ${text('caller')} END`,
  http_status: `CASE WHEN ${PHASE} THEN ${int('http_status')} END`,
  chunk_count: `CASE WHEN ${PHASE} THEN coalesce(${int('chunk_count')}, ${int('chunks')}) END`,
  subagent_id: `CASE WHEN ${SUBAGENT} THEN ${text('agent_id')} END`,
  agent_type: `CASE WHEN ${SUBAGENT} THEN ${text('agent_type')} END`,
  description: `CASE WHEN ${SUBAGENT} THEN ${text('description')} END`,
  status: `CASE WHEN ${SUBAGENT} THEN ${text('status')} END`,
  input_tokens: `CASE WHEN ${SUBAGENT} THEN ${int('input_tokens')} END`,
  output_tokens: `CASE WHEN ${SUBAGENT} THEN ${int('output_tokens')} END`,
  turns: `CASE WHEN ${SUBAGENT} THEN ${int('turns')} END`,
  layer: `CASE WHEN event IN ('TimeoutFired', 'TimeoutIneffective') THEN ${text('layer')} END`,
  tool_name: `CASE WHEN ${TOOL} THEN ${text('tool_name')} END`,
  tool_use_id: `CASE WHEN ${TOOL} THEN ${text('tool_use_id')} END`,
  is_error: `CASE WHEN ${TOOL} THEN ${text('is_error')} = 'true' END`,
  trigger: `CASE WHEN event = 'PreCompact' THEN ${text('trigger')} END`,
  // The sessions view's rule, over json_keys(data) (docs/tables.md#generation-old-or-head).
  generation: `CASE
    WHEN event IN ('StreamRestart', 'TurnComplete', 'LowYieldSpinIntervened') THEN 1
    WHEN ${RETRY} THEN CASE
      WHEN type IN ('cooldown_probe', 'cooldown_probe_denied') OR list_has_any(keys, ${HEAD_KEYS}) THEN 1
      WHEN type = 'retry' OR json_type(data, '$.totalEvents') IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN -1
      ELSE 0 END
    WHEN ${PHASE} THEN CASE
      WHEN list_has_any(keys, ${HEAD_KEYS}) OR (agent_id IS NULL AND (idx >= 10000 OR list_contains(keys, 'attempt'))) THEN 1
      WHEN NOT list_contains(keys, 'attempt') OR list_contains(keys, 'chunks') THEN -1
      ELSE 0 END
    WHEN event = 'HttpConnected' THEN CASE WHEN idx >= 10000 THEN 1 ELSE 0 END
    WHEN event = 'TimeoutFired' THEN CASE
      WHEN (data->>'layer') IN ('watchdog_kill', 'fetch_absolute_timeout') OR list_has_any(keys, ${HEAD_KEYS}) THEN 1
      ELSE 0 END
    WHEN event = 'StreamStall' THEN CASE WHEN list_has_any(keys, list_concat(${HEAD_KEYS}, ['tier_ms', 'summary'])) THEN 1 ELSE -1 END
    WHEN event = 'WatchdogKill' THEN CASE WHEN list_has_any(keys, list_concat(${HEAD_KEYS}, ['snapshot_age_ms', 'snapshot_stale'])) THEN 1 ELSE -1 END
    WHEN event = 'ModelCallUnpaired' AND json_type(data, '$.stream_snapshot') = 'OBJECT' THEN
      CASE WHEN list_has_any(json_keys(data, '$.stream_snapshot'), ['chunk_count', 'snapshot_age_ms', 'snapshot_stale']) THEN 1 ELSE -1 END
    WHEN event = 'AfterModelRaw' AND list_has_any(keys, ['gateway_request_id', 'gateway_request_id_header']) THEN 1
    ELSE 0 END`,
};

// Rows: every event of a family a column reads, and every event whose generation is not 0 by default.
const COMPARE = `WITH reference AS (
  SELECT file_id, line, event, ${Object.entries(REFERENCE).map(([column, sql]) => `${sql} AS ${column}`).join(',\n  ')}
  FROM (SELECT *, json_keys(data) AS keys FROM events)
  WHERE event IN ('RetryTelemetry', 'StreamPhase', 'SubagentStart', 'SubagentStop', 'PostToolUse', 'PostToolUseFailure', 'StreamRestart',
    'TimeoutFired', 'TimeoutIneffective', 'PreCompact', 'StreamStall', 'WatchdogKill', 'AfterModelRaw', 'TurnComplete',
    'LowYieldSpinIntervened', 'HttpConnected', 'ModelCallUnpaired'))
SELECT (SELECT count(*) FROM reference) AS rows, (SELECT count(*) FROM event_fields) AS typed,
  (SELECT count(*) FROM reference r FULL JOIN event_fields f USING (file_id, line)
    WHERE r.line IS NULL OR f.line IS NULL OR r.event IS DISTINCT FROM f.event
      OR ${Object.keys(REFERENCE).map((c) => `r.${c} IS DISTINCT FROM f.${c}`).join(' OR ')}) AS differing,
  (SELECT count(*) FROM reference WHERE ${Object.keys(REFERENCE).map((c) => `${c} IS NOT NULL`).join(' OR ')}) AS with_values`;

const SID_CODE_FIXTURES = fs.readdirSync(FIXTURES).filter((name) => !name.startsWith('check-') && !name.startsWith('claude-'));

describe('event_fields', () => {
  it.each(SID_CODE_FIXTURES)('in fixtures/%s: every row and column as parsing data at query time gives', async (name) => {
    const { value, run } = await runJson<{ rows: number; typed: number; differing: number; with_values: number }[]>(['sql', COMPARE, ...(await fixtureDb(name))]);
    expect(run.code).toBe(0);
    const [{ rows, typed, differing }] = value;
    expect({ differing, typed }).toEqual({ differing: 0, typed: rows });
  });

  it('is compared on fixtures that carry every column, so a wrong column shows', async () => {
    const filled = new Set<string>();
    for (const name of SID_CODE_FIXTURES) {
      const columns = Object.keys(REFERENCE).map((c) => `count(${c}) AS ${c}`).join(', ');
      const { value } = await runJson<Record<string, number>[]>(['sql', `SELECT ${columns} FROM event_fields`, ...(await fixtureDb(name))]);
      for (const [column, n] of Object.entries(value[0])) if (n > 0) filled.add(column);
    }
    expect(Object.keys(REFERENCE).filter((c) => !filled.has(c))).toEqual([]);
    // The fixtures' events tell both generations and neither.
    const { value } = await runJson<{ generation: number }[]>(['sql', 'SELECT DISTINCT generation FROM event_fields ORDER BY 1', ...(await fixtureDb('home'))]);
    expect(value.map((r) => r.generation)).toEqual([-1, 0, 1]);
  });
});

// An everyday load appends a few lines to many files: their tails are typed together, at the end of
// the transaction, each from its own first new line.
describe('event_fields of appended tails', () => {
  it('in fixtures/home loaded in three parts: every row and column as parsing data at query time gives', async () => {
    const work = tempDir();
    try {
      const home = path.join(work.dir, 'home');
      fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
      const events = (fs.readdirSync(home, { recursive: true }) as string[]).filter((f) => path.basename(f) === 'events.jsonl').map((f) => path.join(home, f));
      expect(events.length).toBeGreaterThan(2);
      const whole = new Map(events.map((f) => [f, fs.readFileSync(f, 'utf8')]));
      // Each file cut at a third and two thirds of its lines, at a line end.
      const upTo = (text: string, part: number) => {
        const lines = text.split(/(?<=\n)/);
        return lines.slice(0, Math.floor((lines.length * part) / 3)).join('');
      };
      const db = path.join(work.dir, 'parts.duckdb');
      for (const part of [1, 2, 3]) {
        for (const [file, text] of whole) fs.writeFileSync(file, upTo(text, part));
        const { value: load } = await runJson<{ appended: number }[]>(['load', home, '--db', db, '--quiet']);
        if (part > 1) expect(load[0].appended).toBeGreaterThan(2);
      }
      const { value: loads } = await runJson<{ appended: number }[]>(['load', home, '--db', db, '--quiet']);
      expect(loads[0].appended).toBe(0);
      const { value } = await runJson<{ rows: number; typed: number; differing: number }[]>(['sql', COMPARE, '--db', db]);
      const [{ rows, typed, differing }] = value;
      expect({ differing, typed }).toEqual({ differing: 0, typed: rows });
      expect(rows).toBeGreaterThan(50);
    } finally {
      work.cleanup();
    }
  });
});

// The fixture tree a test names must exist: a renamed fixture would silently compare nothing.
it('compares at least the home fixture', () => {
  expect(SID_CODE_FIXTURES).toContain('home');
  expect(fs.existsSync(path.join(FIXTURES, 'home'))).toBe(true);
});
