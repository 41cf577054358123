// The payload fields that sid-code's views, canned queries and report read, typed once, at load,
// into `event_fields` (docs/tables.md#tables-and-views): no query parses `data`, which stays as
// written. A column is NULL where the event does not carry its key (or the value is not of its type).
import { jsonInteger as integer } from '../../db/json-integer.js';

// HEAD-only keys of the stream events' payloads (docs/formats.md#old-and-head-builds).
const STREAM_HEAD_KEYS = ['chunk_count', 'discardedChars', 'discardedThinkingChars', 'probeDecision'];

/**
 * The event families whose fields are typed, each with the keys read from its `data` (only on its
 * rows: on other events its lists are NULL, and so are its columns). `json` keys are read as JSON:
 * numbers, for jsonInteger, and keys whose presence counts (a key written as null is there);
 * `texts` as `data->>'key'` gives them (a string unquoted, anything else as its JSON text).
 */
const FAMILIES: Record<string, { events: string[]; json: string[]; texts: string[] }> = {
  r: {
    events: ['RetryTelemetry'],
    json: ['attempt', 'delayMs', 'remainingMs', 'totalEvents', 'elapsedMs', 'ttftMs', 'timeoutMs', 'gapMs', ...STREAM_HEAD_KEYS],
    texts: ['model', 'error', 'reopenReason', 'probeDecision', 'provider', 'fallbackModel'],
  },
  p: {
    events: ['StreamPhase'],
    json: ['attempt', 'http_status', 'chunks', 'elapsed_ms', ...STREAM_HEAD_KEYS],
    texts: ['model', 'error', 'caller'],
  },
  s: {
    events: ['SubagentStart', 'SubagentStop'],
    json: ['elapsed_ms', 'input_tokens', 'output_tokens', 'turns'],
    texts: ['agent_id', 'agent_type', 'description', 'status'],
  },
  t: { events: ['PostToolUse', 'PostToolUseFailure'], json: [], texts: ['tool_name', 'tool_use_id', 'is_error'] },
  o: {
    events: ['StreamRestart', 'TimeoutFired', 'TimeoutIneffective', 'PreCompact', 'StreamStall', 'WatchdogKill', 'AfterModelRaw'],
    json: ['discarded_chars', 'discarded_thinking_chars', ...STREAM_HEAD_KEYS, 'tier_ms', 'summary', 'snapshot_age_ms', 'snapshot_stale',
      'gateway_request_id', 'gateway_request_id_header'],
    texts: ['layer', 'trigger'],
  },
};

/**
 * Each family's keys in two lists, one parse each: its `json` keys (`json_<letter>`), its texts
 * (`txt_<letter>`). json_extract, not json_transform: that one reads a key written as null as
 * missing, and the generation counts keys that are there.
 */
const LISTS = Object.entries(FAMILIES).flatMap(([name, { events, json, texts }]) => {
  const when = `CASE WHEN event IN (${events.map((e) => `'${e}'`).join(', ')}) THEN`;
  const paths = (keys: string[]) => `[${keys.map((k) => `'$.${k}'`).join(', ')}]`;
  return [
    ...(json.length > 0 ? [`${when} json_extract(data, ${paths(json)}) END AS json_${name}`] : []),
    ...(texts.length > 0 ? [`${when} json_extract_string(data, ${paths(texts)}) END AS txt_${name}`] : []),
  ];
});

/** A key's value from its family's lists: JSON or text. */
function key(family: string, name: string, as: 'json' | 'text'): string {
  const keys = as === 'json' ? FAMILIES[family].json : FAMILIES[family].texts;
  if (!keys.includes(name)) throw new Error(`event-fields: ${family} reads no ${as} key ${name}`);
  return `${as === 'json' ? 'json' : 'txt'}_${family}[${keys.indexOf(name) + 1}]`;
}
const number = (family: string, name: string) => integer(key(family, name, 'json'));
const text = (family: string, name: string) => key(family, name, 'text');

/** Whether `data` has the key, as json_keys says (json_extract gives JSON null for a key written as null). */
const has = (family: string, name: string) => `${key(family, name, 'json')} IS NOT NULL`;
const hasAny = (family: string, ...keys: string[]) => `(${keys.map((k) => has(family, k)).join(' OR ')})`;

/**
 * What one event says of its writer's generation (docs/formats.md#old-and-head-builds): 1 a key
 * or value only HEAD writes, -1 a key HEAD always writes that is missing (or, for a StreamPhase, OLD's
 * way of indexing), 0 nothing either way.
 */
const GENERATION = `CASE
  WHEN event IN ('StreamRestart', 'TurnComplete', 'LowYieldSpinIntervened') THEN 1
  WHEN event = 'RetryTelemetry' THEN CASE
    WHEN type IN ('cooldown_probe', 'cooldown_probe_denied') OR ${hasAny('r', ...STREAM_HEAD_KEYS)} THEN 1
    -- HEAD writes discardedChars on every retry, and chunk_count whenever totalEvents is a number.
    WHEN type = 'retry' OR json_type(${key('r', 'totalEvents', 'json')}) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN -1
    ELSE 0 END
  -- HEAD derives attempt for every StreamPhase, OLD only has the one a sub-agent passes (with its
  -- agent_id); HEAD's provider rows of a sub-agent or side call sit at 10000+turn / 900000+seq,
  -- OLD's at the main loop's turn.
  WHEN event = 'StreamPhase' THEN CASE
    WHEN ${hasAny('p', ...STREAM_HEAD_KEYS)} OR (agent_id IS NULL AND (idx >= 10000 OR ${has('p', 'attempt')})) THEN 1
    WHEN NOT ${has('p', 'attempt')} OR ${has('p', 'chunks')} THEN -1
    ELSE 0 END
  WHEN event = 'HttpConnected' THEN CASE WHEN idx >= 10000 THEN 1 ELSE 0 END
  WHEN event = 'TimeoutFired' THEN CASE
    WHEN (${text('o', 'layer')}) IN ('watchdog_kill', 'fetch_absolute_timeout') OR ${hasAny('o', ...STREAM_HEAD_KEYS)} THEN 1
    ELSE 0 END
  WHEN event = 'StreamStall' THEN CASE WHEN ${hasAny('o', ...STREAM_HEAD_KEYS, 'tier_ms', 'summary')} THEN 1 ELSE -1 END
  WHEN event = 'WatchdogKill' THEN CASE WHEN ${hasAny('o', ...STREAM_HEAD_KEYS, 'snapshot_age_ms', 'snapshot_stale')} THEN 1 ELSE -1 END
  WHEN event = 'ModelCallUnpaired' AND json_type(data, '$.stream_snapshot') = 'OBJECT' THEN
    CASE WHEN list_has_any(json_keys(data, '$.stream_snapshot'), ['chunk_count', 'snapshot_age_ms', 'snapshot_stale']) THEN 1 ELSE -1 END
  WHEN event = 'AfterModelRaw' AND ${hasAny('o', 'gateway_request_id', 'gateway_request_id_header')} THEN 1
  ELSE 0 END`;

/**
 * The typed columns: name, type, value (over the family lists and the row's event, type, agent_id,
 * idx and data). At most one family's lists are set on a row, so a column two families carry is
 * the coalesce of both; where they spell its key apart, each family's spelling is read.
 */
const FIELDS: [string, string, string][] = [
  ['attempt', 'BIGINT', `coalesce(${number('r', 'attempt')}, ${number('p', 'attempt')})`],
  ['delay_ms', 'BIGINT', number('r', 'delayMs')],
  ['remaining_ms', 'BIGINT', number('r', 'remainingMs')],
  ['model', 'VARCHAR', `coalesce(${text('r', 'model')}, ${text('p', 'model')})`],
  ['error', 'VARCHAR', `coalesce(${text('r', 'error')}, ${text('p', 'error')})`],
  ['reopen_reason', 'VARCHAR', text('r', 'reopenReason')],
  ['discarded_chars', 'BIGINT', `CASE WHEN event = 'StreamRestart' THEN ${number('o', 'discarded_chars')} ELSE ${number('r', 'discardedChars')} END`],
  ['discarded_thinking_chars', 'BIGINT', `CASE WHEN event = 'StreamRestart' THEN ${number('o', 'discarded_thinking_chars')} ELSE ${number('r', 'discardedThinkingChars')} END`],
  ['probe_decision', 'VARCHAR', text('r', 'probeDecision')],
  ['provider', 'VARCHAR', text('r', 'provider')],
  ['fallback_model', 'VARCHAR', text('r', 'fallbackModel')],
  ['total_events', 'BIGINT', number('r', 'totalEvents')],
  ['elapsed_ms', 'BIGINT', `coalesce(${number('r', 'elapsedMs')}, ${number('p', 'elapsed_ms')}, ${number('s', 'elapsed_ms')})`],
  ['ttft_ms', 'BIGINT', number('r', 'ttftMs')],
  ['timeout_ms', 'BIGINT', number('r', 'timeoutMs')],
  ['gap_ms', 'BIGINT', number('r', 'gapMs')],
  ['caller', 'VARCHAR', text('p', 'caller')],
  ['http_status', 'BIGINT', number('p', 'http_status')],
  ['chunk_count', 'BIGINT', `coalesce(${number('p', 'chunk_count')}, ${number('p', 'chunks')})`],
  // RetryTelemetry's agentId is not a Subagent event's agent_id: agent_id holds either, this only the latter.
  ['subagent_id', 'VARCHAR', text('s', 'agent_id')],
  ['agent_type', 'VARCHAR', text('s', 'agent_type')],
  ['description', 'VARCHAR', text('s', 'description')],
  ['status', 'VARCHAR', text('s', 'status')],
  ['input_tokens', 'BIGINT', number('s', 'input_tokens')],
  ['output_tokens', 'BIGINT', number('s', 'output_tokens')],
  ['turns', 'BIGINT', number('s', 'turns')],
  ['layer', 'VARCHAR', `CASE WHEN event IN ('TimeoutFired', 'TimeoutIneffective') THEN ${text('o', 'layer')} END`],
  ['tool_name', 'VARCHAR', text('t', 'tool_name')],
  ['tool_use_id', 'VARCHAR', text('t', 'tool_use_id')],
  ['is_error', 'BOOLEAN', `(${text('t', 'is_error')}) = 'true'`],
  ['trigger', 'VARCHAR', `CASE WHEN event = 'PreCompact' THEN ${text('o', 'trigger')} END`],
  ['generation', 'TINYINT', GENERATION],
];

/** The events with a row in event_fields: every family's, and those that tell the generation. */
const EVENTS = [...Object.values(FAMILIES).flatMap((f) => f.events), 'TurnComplete', 'LowYieldSpinIntervened', 'HttpConnected', 'ModelCallUnpaired'];

/**
 * The `events` columns the views and queries read, copied beside the typed fields: a view or query
 * that reads event_fields alone does not join `events` (3× its rows) on every run.
 */
const ENVELOPE: [string, string][] = [['ts', 'TIMESTAMPTZ'], ['type', 'VARCHAR'], ['phase', 'VARCHAR'], ['idx', 'BIGINT'], ['agent_id', 'VARCHAR']];

/** event_fields' columns, in order. */
export const EVENT_FIELDS_COLUMNS = ['file_id', 'session_id', 'line', 'event', ...[...ENVELOPE, ...FIELDS].map(([column]) => column)];

/** One row per event of EVENTS: its file, session and line (events' key), its envelope columns, and the typed fields. */
export const EVENT_FIELDS_TABLE = `CREATE TABLE IF NOT EXISTS event_fields (
  file_id BIGINT, session_id VARCHAR, line BIGINT, event VARCHAR,
  ${[...ENVELOPE, ...FIELDS].map(([column, type]) => `${column} ${type}`).join(', ')});`;

/** event_fields' rows of the events rows `source` holds (`events`, or an older file's) that meet `condition`. */
export const eventFieldsRows = (source: string, condition = 'true') => `SELECT file_id, session_id, line, event,
  ${ENVELOPE.map(([column]) => column).join(', ')},
  ${FIELDS.map(([column, , value]) => `${value} AS ${column}`).join(',\n  ')}
FROM (SELECT file_id, session_id, line, event, ts, type, phase, idx, agent_id, data, ${LISTS.join(',\n  ')}
  FROM ${source} WHERE (${condition}) AND event IN (${EVENTS.map((e) => `'${e}'`).join(', ')}))`;

/**
 * The events the retry and subagent queries read: few (~12 % of event_fields' rows at 1 GiB), so
 * stored again apart, where those queries do not scan event_fields' other rows (1.5–2× faster).
 */
const RETRY_AND_SUBAGENT_EVENTS = ['RetryTelemetry', 'SubagentStart', 'SubagentStop'];

/** retry_and_subagent_fields: event_fields' RetryTelemetry and Subagent rows, with its columns. */
export const RETRY_AND_SUBAGENT_FIELDS_TABLE = EVENT_FIELDS_TABLE.replace('TABLE IF NOT EXISTS event_fields', 'TABLE IF NOT EXISTS retry_and_subagent_fields');

/** retry_and_subagent_fields' rows of the event_fields rows `source` holds that meet `condition`. */
export const retryAndSubagentRows = (source: string, condition = 'true') =>
  `SELECT * FROM ${source} WHERE (${condition}) AND event IN (${RETRY_AND_SUBAGENT_EVENTS.map((e) => `'${e}'`).join(', ')}) ORDER BY event, file_id, line`;

/**
 * The stream rows a sub-agent's evidence is read from: StreamPhase and TimeoutFired rows that carry
 * an agent_id, and every StreamPhase error (~14 % of event_fields' rows at 1 GiB), stored again apart
 * so that snapshot-attribution and silent-subagent-failures do not scan the untagged rest.
 */
const STREAM_EVIDENCE = `(event IN ('StreamPhase', 'TimeoutFired') AND agent_id IS NOT NULL) OR (event = 'StreamPhase' AND phase = 'error')`;

/** stream_evidence_fields: event_fields' rows of STREAM_EVIDENCE, with its columns. */
export const STREAM_EVIDENCE_FIELDS_TABLE = EVENT_FIELDS_TABLE.replace('TABLE IF NOT EXISTS event_fields', 'TABLE IF NOT EXISTS stream_evidence_fields');

/** stream_evidence_fields' rows of the event_fields rows `source` holds that meet `condition`. */
export const streamEvidenceRows = (source: string, condition = 'true') =>
  `SELECT * FROM ${source} WHERE (${condition}) AND (${STREAM_EVIDENCE}) ORDER BY event, file_id, line`;

/**
 * The provider's stream rows (StreamPhase without an agent_id, ~38 % of event_fields' rows at 1 GiB),
 * with only what snapshot-attribution matches them by and counts: it reads them without scanning
 * event_fields' other rows and columns.
 */
export const UNTAGGED_STREAM_FIELDS_COLUMNS = ['file_id', 'session_id', 'line', 'ts', 'idx', 'chunk_count'];

export const UNTAGGED_STREAM_FIELDS_TABLE = `CREATE TABLE IF NOT EXISTS untagged_stream_fields (
  file_id BIGINT, session_id VARCHAR, line BIGINT, ts TIMESTAMPTZ, idx BIGINT, chunk_count BIGINT);`;

/** untagged_stream_fields' rows of the event_fields rows `source` holds that meet `condition`. */
export const untaggedStreamRows = (source: string, condition = 'true') =>
  `SELECT ${UNTAGGED_STREAM_FIELDS_COLUMNS.join(', ')} FROM ${source} WHERE (${condition}) AND event = 'StreamPhase' AND agent_id IS NULL`;

/** Fills event_fields, then the tables stored again apart, from the events rows that meet `condition` (the files a load just read). */
export const insertEventFields = (condition: string) => `INSERT INTO event_fields ${eventFieldsRows('events', condition)};
INSERT INTO retry_and_subagent_fields ${retryAndSubagentRows('event_fields', condition)};
INSERT INTO stream_evidence_fields ${streamEvidenceRows('event_fields', condition)};
INSERT INTO untagged_stream_fields ${untaggedStreamRows('event_fields', condition)}`;
