// sid-code's tables and views. Raw rows keep the whole payload as JSON so nothing is lost; views
// project the fields each event family carries (docs/formats.md).
import { jsonDouble as double } from '../../db/json-double.js';
import { jsonInteger as integer } from '../../db/json-integer.js';
import type { SchemaPart } from '../../db/schema.js';
import { EVENT_FIELDS_COLUMNS, EVENT_FIELDS_TABLE, eventFieldsRows, RETRY_AND_SUBAGENT_FIELDS_TABLE, retryAndSubagentRows, STREAM_EVIDENCE_FIELDS_TABLE, streamEvidenceRows, UNTAGGED_STREAM_FIELDS_COLUMNS, UNTAGGED_STREAM_FIELDS_TABLE, untaggedStreamRows } from './event-fields.js';

// Task ids: one letter + 8 of [0-9a-z] (docs/formats.md#task-outputs). Custom subagents
// (`subagent-custom-<ms>`) have none, and the pattern cannot match their 13 digits.
const TASK_FROM_AGENT = `regexp_extract(%s, '-([a-z][0-9a-z]{8})$', 1)`;
const taskId = (expr: string) => `nullif(${TASK_FROM_AGENT.replace('%s', expr)}, '')`;

/** The record's numeric keys, read once per row as JSON for \`integer\` and \`double\` (one parse, not one per key). */
const numbers = (column: string, ...keys: string[]) =>
  `json_transform(${column}, '${JSON.stringify(Object.fromEntries(keys.map((k) => [k, 'JSON'])))}')`;

/**
 * The row of an upsert ledger (docs/formats.md#usage-ledgerjsonl) that holds each session's state: the last
 * line of its file (legacy append-era files repeat a session, the later line wins), then, when
 * several files hold the session (a ledger copied into a session dir, two homes in one --db),
 * the row with the latest `ts`, the writer's own time of the write. A file's mtime says when the
 * file was copied or touched, not when its rows were written; it only breaks a tie of `ts` (a
 * copy of the same row), then the path does.
 */
const latestPerSession = (rows: string) => `SELECT * EXCLUDE (file_mtime, file_path) FROM (
    SELECT r.*, f.mtime AS file_mtime, f.path AS file_path FROM ${rows} r LEFT JOIN input_files f USING (file_id)
    QUALIFY row_number() OVER (PARTITION BY r.file_id, r.session_id ORDER BY r.line DESC) = 1)
  QUALIFY row_number() OVER (PARTITION BY session_id ORDER BY ts DESC NULLS LAST, file_mtime DESC NULLS LAST, file_path DESC) = 1`;

/** The Subagent lifecycle rows of `fields` (retry_and_subagent_fields' rows). */
const lifecycleFields = (fields: string) => `SELECT session_id, file_id, line, ts, CASE event WHEN 'SubagentStart' THEN 'start' ELSE 'stop' END AS kind,
  subagent_id AS agent_id, agent_type, ${taskId('subagent_id')} AS task_id,
  (event = 'SubagentStart' AND starts_with(subagent_id, 'subagent-custom-'))
    OR (event = 'SubagentStop' AND subagent_id IS NULL) AS is_custom,
  description, status, elapsed_ms, input_tokens, output_tokens, turns
FROM ${fields} WHERE event IN ('SubagentStart', 'SubagentStop')`;

/**
 * One row per SubagentStart with the Stop it pairs with (NULLs when it never stopped). A Start pairs
 * with a later Stop of the same session and agent_id; custom subagents (Stop with a null agent_id)
 * pair among themselves. In time order (then line), each Stop takes the earliest still unpaired
 * Start of its key before it, first in, first out; a Stop with none is a Stop without a Start.
 * After the i-th Stop of a key, min(i, min over Stops j <= i of (Starts before j + i - j)) Stops
 * have paired: the i-th Stop pairs exactly when that count grows, and the k-th paired Stop takes
 * the k-th Start.
 */
const subagentRunRows = (fields: string) => `WITH keyed AS (
  SELECT *, CASE WHEN agent_id IS NULL OR starts_with(agent_id, 'subagent-custom-') THEN NULL ELSE agent_id END AS pair_key
  FROM (${lifecycleFields(fields)})
),
ordered AS (
  SELECT *,
    count(*) FILTER (kind = 'start') OVER key_order AS starts_so_far,
    count(*) FILTER (kind = 'stop') OVER key_order AS stops_so_far
  FROM keyed
  WINDOW key_order AS (PARTITION BY session_id, pair_key ORDER BY ts, line ROWS UNBOUNDED PRECEDING)
),
stop_counts AS (
  SELECT *, stops_so_far + least(0, min(starts_so_far - stops_so_far) OVER key_order) AS paired_so_far
  FROM ordered WHERE kind = 'stop'
  WINDOW key_order AS (PARTITION BY session_id, pair_key ORDER BY ts, line ROWS UNBOUNDED PRECEDING)
),
stops AS (
  SELECT * FROM stop_counts
  QUALIFY paired_so_far > coalesce(lag(paired_so_far) OVER (PARTITION BY session_id, pair_key ORDER BY ts, line), 0)
)
SELECT a.session_id, a.agent_id, a.agent_type, a.task_id, a.is_custom, a.description,
  a.ts AS start_ts, a.line AS start_line, b.ts AS stop_ts, b.line AS stop_line, b.status,
  b.elapsed_ms, b.input_tokens, b.output_tokens, b.turns
FROM ordered a
LEFT JOIN stops b ON b.session_id = a.session_id AND b.pair_key IS NOT DISTINCT FROM a.pair_key AND b.paired_so_far = a.starts_so_far
WHERE a.kind = 'start'`;

const SUBAGENT_RUN_COLUMNS: [string, string][] = [['session_id', 'VARCHAR'], ['agent_id', 'VARCHAR'], ['agent_type', 'VARCHAR'], ['task_id', 'VARCHAR'],
  ['is_custom', 'BOOLEAN'], ['description', 'VARCHAR'], ['start_ts', 'TIMESTAMPTZ'], ['start_line', 'BIGINT'], ['stop_ts', 'TIMESTAMPTZ'],
  ['stop_line', 'BIGINT'], ['status', 'VARCHAR'], ['elapsed_ms', 'BIGINT'], ['input_tokens', 'BIGINT'], ['output_tokens', 'BIGINT'], ['turns', 'BIGINT']];

/**
 * A sub-agent's streams: one row per (session, index of 10000 and up, agent_id) of the StreamPhase
 * rows that carry an agent_id (stream_evidence_fields' rows), with what snapshot-attribution reads
 * of each, so that it does not group its sessions' tagged rows on every run.
 */
const subagentStreamRows = (fields: string) => `SELECT session_id, idx AS "index", agent_id, ${taskId('agent_id')} AS task_id,
  min(ts) AS first_ts, max(ts) AS last_ts, count(*) AS tagged_rows, max(chunk_count) AS tagged_chunks,
  -- Cut off: no completed/error after its last fetch_sent.
  coalesce(max(ts) FILTER (phase <> 'fetch_sent') < max(ts) FILTER (phase = 'fetch_sent'), true) AS cut_off
FROM ${fields} WHERE event = 'StreamPhase' AND agent_id IS NOT NULL AND idx >= 10000
GROUP BY session_id, idx, agent_id`;

const SUBAGENT_STREAM_COLUMNS: [string, string][] = [['session_id', 'VARCHAR'], ['index', 'BIGINT'], ['agent_id', 'VARCHAR'], ['task_id', 'VARCHAR'],
  ['first_ts', 'TIMESTAMPTZ'], ['last_ts', 'TIMESTAMPTZ'], ['tagged_rows', 'BIGINT'], ['tagged_chunks', 'BIGINT'], ['cut_off', 'BOOLEAN']];

/**
 * One row per (session, task id) of a sub-agent (`fields`: retry_and_subagent_fields' rows): its
 * Starts' agent_id and agent_type (the least, when a task id starts twice, from subagent_run_rows)
 * and its last Stop's agent_type and status (a Stop without a Start included), so that
 * retry-by-agent names agents and tells how they ended without grouping those rows on every run.
 */
const subagentTaskRows = (fields: string) => `WITH starts AS (
  SELECT session_id, task_id, min(agent_id) AS agent_id, min(agent_type) AS agent_type
  FROM subagent_run_rows WHERE task_id IS NOT NULL GROUP BY session_id, task_id),
stops AS (
  SELECT session_id, task_id, arg_max(agent_type, (ts, line)) AS stop_agent_type, arg_max(status, (ts, line)) AS stop_status
  FROM (${lifecycleFields(fields)}) WHERE kind = 'stop' AND task_id IS NOT NULL GROUP BY session_id, task_id)
SELECT session_id, task_id, s.agent_id, s.agent_type, p.stop_agent_type, p.stop_status
FROM starts s FULL JOIN stops p USING (session_id, task_id)`;

const SUBAGENT_TASK_COLUMNS: [string, string][] = [['session_id', 'VARCHAR'], ['task_id', 'VARCHAR'], ['agent_id', 'VARCHAR'], ['agent_type', 'VARCHAR'],
  ['stop_agent_type', 'VARCHAR'], ['stop_status', 'VARCHAR']];

/**
 * The cooldown family's RetryTelemetry rows (`fields`: retry_and_subagent_fields' rows), each with
 * when it tries to send and its agent's name (a sub-agent's from its Start, through subagent_task_rows):
 * cooldown-herd reads them without scanning the other retry rows and naming agents on every run.
 */
const cooldownWakeRows = (fields: string) => `WITH wakes AS (
  SELECT session_id, line, ts, type, agent_id, ${taskId('agent_id')} AS task_id, attempt, delay_ms, probe_decision
  FROM ${fields}
  WHERE event = 'RetryTelemetry' AND type IN ('shared_cooldown_wait', 'retry', 'cooldown_probe', 'cooldown_probe_denied'))
SELECT r.session_id, r.line, r.ts, r.type, r.attempt, r.probe_decision,
  -- NULL when the time or the delay is unknown (a missing count counts as missing, docs/tables.md#numbers-in-columns),
  -- or past DuckDB's times (a garbled delayMs of 9.3e15 ms): no known wake, as a missing delay.
  CASE WHEN r.type IN ('shared_cooldown_wait', 'retry') THEN try(r.ts + to_milliseconds(r.delay_ms)) ELSE r.ts END AS wake_ts,
  CASE WHEN r.agent_id IS NULL THEN 'main' ELSE coalesce(n.agent_id, r.agent_id) END AS agent
FROM wakes r LEFT JOIN subagent_task_rows n ON n.session_id = r.session_id AND n.task_id = r.task_id`;

const COOLDOWN_WAKE_COLUMNS: [string, string][] = [['session_id', 'VARCHAR'], ['line', 'BIGINT'], ['ts', 'TIMESTAMPTZ'], ['type', 'VARCHAR'],
  ['attempt', 'BIGINT'], ['probe_decision', 'VARCHAR'], ['wake_ts', 'TIMESTAMPTZ'], ['agent', 'VARCHAR']];

/**
 * The HttpConnected and AfterModelRaw rows (`fields`: event_fields' rows), each AfterModelRaw placed
 * at the time of the main-loop HttpConnected it follows, if any (its own time else): ghost-streams
 * counts them by that time without ordering its sessions' rows on every run. AfterModelRaw is
 * main-loop only, so it pairs among main-loop HttpConnected rows (index < 10000).
 */
const ghostStreamRows = (fields: string) => `SELECT session_id, event, idx,
  CASE WHEN event = 'AfterModelRaw' AND ts IS NOT NULL
    AND lag(event) OVER main_chain = 'HttpConnected' THEN lag(ts) OVER main_chain ELSE ts END AS placed_ts
FROM ${fields}
WHERE event IN ('HttpConnected', 'AfterModelRaw')
WINDOW main_chain AS (PARTITION BY session_id, (event = 'AfterModelRaw' OR coalesce(idx < 10000, false)) ORDER BY ts, line)`;

const GHOST_STREAM_COLUMNS: [string, string][] = [['session_id', 'VARCHAR'], ['event', 'VARCHAR'], ['idx', 'BIGINT'], ['placed_ts', 'TIMESTAMPTZ']];

const TABLES = `
CREATE TABLE IF NOT EXISTS events (
  file_id BIGINT, session_id VARCHAR, line BIGINT, ts TIMESTAMPTZ, event VARCHAR,
  envelope_session_id VARCHAR, cwd VARCHAR, idx BIGINT, agent_id VARCHAR, type VARCHAR, phase VARCHAR, data JSON,
  ts_unread VARCHAR);
CREATE TABLE IF NOT EXISTS error_records (
  file_id BIGINT, session_id VARCHAR, line BIGINT, ts TIMESTAMPTZ, envelope_session_id VARCHAR,
  phase VARCHAR, idx BIGINT, error VARCHAR, data JSON, ts_unread VARCHAR);
CREATE TABLE IF NOT EXISTS warn_lines (
  file_id BIGINT, session_id VARCHAR, line BIGINT, end_line BIGINT, ts TIMESTAMPTZ, level VARCHAR,
  category VARCHAR, message VARCHAR, data JSON, ts_unread VARCHAR);
-- The record's time as written, when ts could not read it (the rest of the record is not in
-- data); added at the end, so databases from before it keep their column order.
ALTER TABLE events ADD COLUMN IF NOT EXISTS ts_unread VARCHAR;
ALTER TABLE error_records ADD COLUMN IF NOT EXISTS ts_unread VARCHAR;
ALTER TABLE warn_lines ADD COLUMN IF NOT EXISTS ts_unread VARCHAR;
${EVENT_FIELDS_TABLE}
${RETRY_AND_SUBAGENT_FIELDS_TABLE}
${STREAM_EVIDENCE_FIELDS_TABLE}
${UNTAGGED_STREAM_FIELDS_TABLE}
CREATE TABLE IF NOT EXISTS subagent_stream_rows (${SUBAGENT_STREAM_COLUMNS.map(([column, type]) => `"${column}" ${type}`).join(', ')});
CREATE TABLE IF NOT EXISTS subagent_task_rows (${SUBAGENT_TASK_COLUMNS.map(([column, type]) => `${column} ${type}`).join(', ')});
CREATE TABLE IF NOT EXISTS cooldown_wake_rows (${COOLDOWN_WAKE_COLUMNS.map(([column, type]) => `${column} ${type}`).join(', ')});
CREATE TABLE IF NOT EXISTS ghost_stream_rows (${GHOST_STREAM_COLUMNS.map(([column, type]) => `${column} ${type}`).join(', ')});
CREATE TABLE IF NOT EXISTS subagent_run_rows (${SUBAGENT_RUN_COLUMNS.map(([column, type]) => `${column} ${type}`).join(', ')});
CREATE TABLE IF NOT EXISTS usage_ledger_rows (file_id BIGINT, line BIGINT, ts TIMESTAMPTZ, session_id VARCHAR, record JSON);
CREATE TABLE IF NOT EXISTS session_index_rows (file_id BIGINT, line BIGINT, ts TIMESTAMPTZ, session_id VARCHAR, record JSON);
CREATE TABLE IF NOT EXISTS session_summaries (file_id BIGINT, session_id VARCHAR, exit_status VARCHAR, abnormal BOOLEAN, real_errors BIGINT, summary JSON);
CREATE TABLE IF NOT EXISTS heartbeats (file_id BIGINT, session_id VARCHAR, ts TIMESTAMPTZ, record JSON);
CREATE TABLE IF NOT EXISTS task_outputs (
  file_id BIGINT, path VARCHAR, task_id VARCHAR, prefix VARCHAR, task_type VARCHAR, bytes BIGINT,
  mtime TIMESTAMPTZ, head VARCHAR);
`;

const VIEWS = `
-- The payload views without \`data\`, from event_fields alone (what canned queries read), and the
-- same rows with \`data\` joined from events.
CREATE OR REPLACE VIEW retry_telemetry_fields AS
SELECT session_id, file_id, line, ts, type, agent_id, ${taskId('agent_id')} AS task_id, model, attempt,
  delay_ms, remaining_ms, error, phase, reopen_reason, discarded_chars, discarded_thinking_chars,
  probe_decision, provider, fallback_model, total_events, elapsed_ms, ttft_ms, timeout_ms, gap_ms
FROM retry_and_subagent_fields WHERE event = 'RetryTelemetry';
CREATE OR REPLACE VIEW retry_telemetry AS
SELECT r.*, e.data FROM retry_telemetry_fields r JOIN events e USING (file_id, line) WHERE e.event = 'RetryTelemetry';

CREATE OR REPLACE VIEW stream_phases_fields AS
SELECT session_id, file_id, line, ts, idx AS "index", phase, agent_id, ${taskId('agent_id')} AS task_id,
  attempt, caller, model, http_status, chunk_count, elapsed_ms, error
FROM event_fields WHERE event = 'StreamPhase';
CREATE OR REPLACE VIEW stream_phases AS
SELECT p.*, e.data FROM stream_phases_fields p JOIN events e USING (file_id, line) WHERE e.event = 'StreamPhase';

CREATE OR REPLACE VIEW subagent_lifecycle_fields AS
${lifecycleFields('retry_and_subagent_fields')};
CREATE OR REPLACE VIEW subagent_lifecycle AS
SELECT l.*, e.data FROM subagent_lifecycle_fields l JOIN events e USING (file_id, line) WHERE e.event IN ('SubagentStart', 'SubagentStop');

-- One row per SubagentStart with the Stop it pairs with, stored (subagent_run_rows, made again
-- after each load that wrote rows): the pairing reads all of a session's lifecycle rows.
CREATE OR REPLACE VIEW subagent_runs AS SELECT * FROM subagent_run_rows;

CREATE OR REPLACE VIEW usage_ledger AS
SELECT session_id, ts, record->>'model' AS model, record->>'provider' AS provider,
  ${integer('n.promptTotal')} AS prompt_total, ${integer('n.cacheHit')} AS cache_hit,
  ${integer('n.cacheWrite')} AS cache_write, ${integer('n.uncachedInput')} AS uncached_input,
  ${integer('n.output')} AS output, ${double('n.costUSD')} AS cost_usd,
  ${double('n.savingsUSD')} AS savings_usd, ${integer('n.durationMs')} AS duration_ms,
  ${double('n.sideCostUSD')} AS side_cost_usd, record->>'appVersion' AS app_version,
  file_id, line, record
FROM (SELECT *, ${numbers('record', 'promptTotal', 'cacheHit', 'cacheWrite', 'uncachedInput', 'output', 'costUSD', 'savingsUSD', 'durationMs', 'sideCostUSD')} AS n
  FROM (${latestPerSession('usage_ledger_rows')}));

CREATE OR REPLACE VIEW session_index AS
SELECT session_id, ts, record->>'model' AS model, record->>'exit_status' AS exit_status,
  ${integer('n.duration_ms')} AS duration_ms, ${integer('n.turns')} AS turns,
  ${double('n.cost_usd')} AS cost_usd, ${integer('n.real_errors')} AS real_errors,
  ${integer('n.anomalies_count')} AS anomalies_count, file_id, line, record
FROM (SELECT *, ${numbers('record', 'duration_ms', 'turns', 'cost_usd', 'real_errors', 'anomalies_count')} AS n
  FROM (${latestPerSession('session_index_rows')}));

CREATE OR REPLACE VIEW sessions AS
WITH per_session AS (
  SELECT session_id, min(ts) AS first_event_ts, max(ts) AS last_event_ts, count(*) AS events,
    bool_or(event = 'SessionStart') AS has_session_start, bool_or(event = 'SessionEnd') AS has_session_end
  FROM events GROUP BY session_id),
generations AS (
  SELECT session_id, bool_or(generation = 1) AS head, bool_or(generation = -1) AS old FROM event_fields GROUP BY session_id),
-- The other files (docs/formats.md#old-and-head-builds). A heartbeat's active request: HEAD
-- always writes chunk_count and snapshot_age_ms, and picks a sub-agent's provider-side snapshot
-- (index 10000+, no agent_id) as the main loop's. A summary: HEAD always writes pathological.
heartbeat_keys AS (
  SELECT session_id, record, json_keys(record, '$.active_request') AS k
  FROM heartbeats WHERE json_type(record, '$.active_request') = 'OBJECT'),
other_files AS (
  SELECT session_id, bool_or(list_has_any(k, ['chunk_count', 'snapshot_age_ms'])
      OR (NOT list_contains(k, 'agent_id') AND ${integer("record->'$.active_request.index'")} >= 10000)) AS head,
    bool_or(NOT list_has_any(k, ['chunk_count', 'snapshot_age_ms'])) AS old
  FROM heartbeat_keys GROUP BY session_id
  UNION ALL SELECT session_id, bool_or(json_exists(summary, '$.pathological')), bool_or(NOT json_exists(summary, '$.pathological'))
    FROM session_summaries GROUP BY session_id
  UNION ALL SELECT session_id, true, false FROM warn_lines WHERE category = 'TRACE' AND regexp_matches(message, '检出 \\d+ 条\\[高\\]级异常') GROUP BY session_id
  UNION ALL SELECT session_id, true, false FROM session_index_rows GROUP BY session_id
  UNION ALL SELECT session_id, bool_or(json_exists(record, '$.appVersion') OR json_exists(record, '$.peakRatio')), false
    FROM usage_ledger_rows GROUP BY session_id),
files AS (SELECT session_id, bool_or(head) AS head, bool_or(old) AS old FROM other_files GROUP BY session_id)
SELECT d.session_id, d.path, p.first_event_ts, p.last_event_ts, coalesce(p.events, 0) AS events,
  coalesce(p.has_session_start, false) AS has_session_start, coalesce(p.has_session_end, false) AS has_session_end,
  CASE WHEN g.head OR f.head THEN 'head' WHEN g.old OR f.old THEN 'old' ELSE 'unknown' END AS generation
FROM session_dirs d LEFT JOIN per_session p USING (session_id) LEFT JOIN generations g USING (session_id)
  LEFT JOIN files f USING (session_id);
`;

export const sidCodeSchema: SchemaPart = {
  tables: TABLES,
  views: VIEWS,
  // Older files have events without event_fields: the next load fills it, a read-only open computes it.
  derivedTables: [
    { table: 'event_fields', columns: EVENT_FIELDS_COLUMNS, from: 'events', rows: (events) => eventFieldsRows(events) },
    { table: 'retry_and_subagent_fields', columns: EVENT_FIELDS_COLUMNS, from: 'event_fields', rows: (fields) => retryAndSubagentRows(fields) },
    { table: 'stream_evidence_fields', columns: EVENT_FIELDS_COLUMNS, from: 'event_fields', rows: (fields) => streamEvidenceRows(fields) },
    { table: 'untagged_stream_fields', columns: UNTAGGED_STREAM_FIELDS_COLUMNS, from: 'event_fields', rows: (fields) => untaggedStreamRows(fields) },
    { table: 'subagent_run_rows', columns: SUBAGENT_RUN_COLUMNS.map(([column]) => column), from: 'retry_and_subagent_fields', rows: subagentRunRows, whole: true },
    { table: 'subagent_stream_rows', columns: SUBAGENT_STREAM_COLUMNS.map(([column]) => column), from: 'stream_evidence_fields', rows: subagentStreamRows, whole: true },
    { table: 'subagent_task_rows', columns: SUBAGENT_TASK_COLUMNS.map(([column]) => column), from: 'retry_and_subagent_fields', rows: subagentTaskRows, whole: true },
    { table: 'cooldown_wake_rows', columns: COOLDOWN_WAKE_COLUMNS.map(([column]) => column), from: 'retry_and_subagent_fields', rows: cooldownWakeRows, whole: true },
    { table: 'ghost_stream_rows', columns: GHOST_STREAM_COLUMNS.map(([column]) => column), from: 'event_fields', rows: ghostStreamRows, whole: true },
  ],
};
