import { jsonlAdapter } from './jsonl-adapter.js';

// Envelope (formats doc §3.1) transformed while staging; the hot payload fields in a second,
// smaller parse of `data`. `agent_id` is the StreamPhase/Subagent spelling, `agentId`
// RetryTelemetry's (§3.4).
const ENVELOPE = '{"event":"VARCHAR","session_id":"VARCHAR","timestamp":"VARCHAR","cwd":"VARCHAR","data":"JSON"}';
const HOT = `'{"index":"BIGINT","agent_id":"VARCHAR","agentId":"VARCHAR","type":"VARCHAR","phase":"VARCHAR"}'`;

export default jsonlAdapter(
  'events',
  'events',
  { shape: ENVELOPE, keepValidText: false },
  `SELECT $file_id, $session_id, line_no, TRY_CAST(e.timestamp AS TIMESTAMPTZ), e.event, e.session_id, e.cwd,
     h."index", coalesce(h.agent_id, h.agentId), h.type, h.phase, e.data
   FROM (SELECT line_no, e, json_transform(e.data, ${HOT}) AS h FROM staged WHERE verdict = 'valid')`,
  true,
);
