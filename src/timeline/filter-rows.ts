// The timeline's narrowing options: --agent, --around/--window, --event.
import { didYouMean } from '../did-you-mean.js';
import { UsageError } from '../errors.js';
import { taskIdOf } from './agent-id.js';
import type { MergedRow } from './timeline-rows.js';
import { epochMicros, type Instant } from '../time/parse-time.js';

// Stream-observer events (docs/formats.md#stream-observer-events). Provider code emits them
// without agent_id, at the subagent's stream index (docs/formats.md#stream-snapshots-and-their-two-keys),
// so they belong to an agent only through index and time.
const STREAM_EVENTS = new Set([
  'StreamPhase', 'HttpConnected', 'TimeoutFired', 'TimeoutIneffective', 'TimeoutRetry', 'TimeoutRetryExhausted',
  'StreamStall', 'WatchdogKill', 'TimerDrift', 'StreamRestart',
]);

const time = (row: MergedRow) => (row.ts === null ? Number.NaN : Date.parse(row.ts));

/**
 * One subagent's rows (any id form), plus the untagged stream rows at the indices its tagged rows
 * use, inside its SubagentStart–SubagentStop window. Parallel subagents share index 10001, so those
 * untagged rows may belong to a sibling: the data cannot tell them apart.
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
  // reduce, not Math.min(...): a subagent can have more rows than a call can take arguments.
  const from = startRow ? time(startRow) : times.reduce((a, b) => Math.min(a, b), Infinity);
  const to = stopRow ? time(stopRow) : times.reduce((a, b) => Math.max(a, b), -Infinity);
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

/** The names one row answers to under --event: its event, and for a warn.log row its level and category. */
function namesOf(r: MergedRow): string[] {
  const log = r.source === 'warn' ? /^\[([A-Z]+)\] (.*)$/.exec(r.event) : null;
  return log ? [r.event, log[1], log[2]] : [r.event];
}

/** `--event NAME`: an event name (StreamPhase, Error), a warn.log category (LLM:OPENAI), a level (ERROR) or `[ERROR] LLM:OPENAI`. */
export function eventRows(rows: MergedRow[], names: string[]): MergedRow[] {
  const wanted = new Set(names);
  return rows.filter((r) => namesOf(r).some((n) => wanted.has(n)));
}

/**
 * Refuses an --event name that no row of the session answers to (a typo, or the wrong case: names
 * are exact): "(no rows)" would read as "it never happened". `rows` is the whole session, before
 * --agent and --around narrow it, where an empty answer is a real one.
 */
export function checkEventNames(rows: MergedRow[], names: string[], sessionId: string): void {
  const present = new Set(rows.flatMap(namesOf));
  for (const name of names) {
    if (present.has(name)) continue;
    const hint = didYouMean(name, present);
    const events = [...new Set(rows.filter((r) => r.source !== 'warn').map((r) => r.event))].sort();
    const logs = [...new Set(rows.filter((r) => r.source === 'warn').flatMap((r) => namesOf(r).slice(1)))].sort();
    const list = [events.length ? `event names ${events.join(', ')}` : '', logs.length ? `warn.log levels and categories ${logs.join(', ')}` : ''].filter(Boolean).join('; ');
    throw new UsageError(`--event ${JSON.stringify(name)} matches no row of session ${sessionId} (names are exact); ${hint}${list ? `its names: ${list}` : 'it has no rows'}`);
  }
}
