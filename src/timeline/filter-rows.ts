// The timeline's narrowing options: --agent, --around/--window, --event.
import { UsageError } from '../errors.js';
import { taskIdOf } from './agent-id.js';
import type { MergedRow } from './timeline-rows.js';
import { epochMicros, type Instant } from '../time/parse-time.js';

// Stream-observer events (formats doc §3.5). Provider code emits them without agent_id, at the
// subagent's stream index (§4), so they belong to an agent only through index and time.
const STREAM_EVENTS = new Set([
  'StreamPhase', 'HttpConnected', 'TimeoutFired', 'TimeoutIneffective', 'TimeoutRetry', 'TimeoutRetryExhausted',
  'StreamStall', 'WatchdogKill', 'TimerDrift', 'StreamRestart',
]);

const time = (row: MergedRow) => (row.ts === null ? Number.NaN : Date.parse(row.ts));

/**
 * One subagent's rows (any id form), plus the untagged stream rows at the indices its tagged rows
 * use, inside its SubagentStart–SubagentStop window. Parallel subagents share index 10001, so those
 * untagged rows may belong to a sibling: the data cannot tell them apart (§4).
 */
export function agentRows(rows: MergedRow[], wanted: string, sessionId: string): MergedRow[] {
  const task = taskIdOf(wanted);
  const mine = (r: MergedRow) => r.agent !== null && (task !== null ? r.taskId === task : r.agent === wanted);
  const tagged = rows.filter(mine);
  if (tagged.length === 0) {
    const agents = [...new Set(rows.map((r) => r.agent).filter((a) => a !== null))].sort();
    const list = agents.length ? `its agents:\n  ${agents.join('\n  ')}` : 'it has no subagent rows';
    throw new UsageError(`no subagent ${JSON.stringify(wanted)} in session ${sessionId}; ${list}`);
  }
  const times = tagged.map(time).filter((t) => !Number.isNaN(t));
  const startRow = tagged.find((r) => r.event === 'SubagentStart');
  const stopRow = [...tagged].reverse().find((r) => r.event === 'SubagentStop');
  const from = startRow ? time(startRow) : Math.min(...times);
  const to = stopRow ? time(stopRow) : Math.max(...times);
  const indices = new Set(tagged.filter((r) => r.source === 'events' && r.index !== null).map((r) => r.index));
  const untaggedStream = (r: MergedRow) =>
    r.source === 'events' && r.agent === null && STREAM_EVENTS.has(r.event) && indices.has(r.index) && time(r) >= from && time(r) <= to;
  return rows.filter((r) => mine(r) || untaggedStream(r));
}

/** Rows within ±windowMs of the centre. */
export function aroundRows(rows: MergedRow[], centre: Instant, windowMs: number): MergedRow[] {
  const half = BigInt(Math.round(windowMs * 1000));
  // To the microsecond: a row 1000.9 ms away is outside a 1 s window.
  return rows.filter((r) => {
    const at = r.ts === null ? null : epochMicros(r.ts);
    if (at === null) return false;
    const distance = at - centre.micros;
    return (distance < 0n ? -distance : distance) <= half;
  });
}

/** `--event NAME`: an event name (StreamPhase, Error), a warn.log category (LLM:OPENAI), a level (ERROR) or `[ERROR] LLM:OPENAI`. */
export function eventRows(rows: MergedRow[], names: string[]): MergedRow[] {
  const wanted = new Set(names);
  return rows.filter((r) => {
    if (wanted.has(r.event)) return true;
    const log = /^\[([A-Z]+)\] (.*)$/.exec(r.event);
    return r.source === 'warn' && log !== null && (wanted.has(log[1]) || wanted.has(log[2]));
  });
}
