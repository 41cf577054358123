// The one-line payload summary of a timeline row: the fields an on-call engineer scans for first,
// then the rest in the order the writer wrote them. Fields already shown as columns are left out.
import { jsonText } from '../render/json-text.js';
import { type Cell, ExactNumber } from '../render/types.js';
import type { MergedRow } from './timeline-rows.js';

const FIRST = ['type', 'status', 'phase', 'http_status', 'layer', 'attempt', 'delayMs', 'remainingMs', 'probeDecision', 'reason', 'error'];
const SHOWN_AS_COLUMNS = new Set(['index', 'agent_id', 'agentId']);

function value(v: Cell): string {
  if (typeof v === 'string') return v !== '' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return jsonText(v);
}

/** `skipNull`: a transcript line's summary names only the fields it has (its object is made with every key). */
function fields(data: Cell, skipNull = false): string {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof ExactNumber) return data === null ? '' : value(data);
  const keys = Object.keys(data).filter((k) => !SHOWN_AS_COLUMNS.has(k) && !(skipNull && data[k] === null));
  const ordered = [...FIRST.filter((k) => keys.includes(k)), ...keys.filter((k) => !FIRST.includes(k))];
  return ordered.map((k) => `${k}=${value(data[k])}`).join(' ');
}

export function summarize(row: MergedRow): string {
  if (row.source !== 'warn') return fields(row.data, row.source === 'transcript');
  const message = (row.message ?? '').replace(/\s*\r?\n\s*/g, ' ⏎ ').trim();
  return row.data === null ? message : `${message} ${jsonText(row.data)}`;
}

/**
 * Table format only. On a pipe, and one record per block, a summary is shown whole
 * (docs/outputs.md#table) up to this many characters: every event sid-code writes fits. Past it (a
 * pasted prompt in UserPromptSubmit, a long warn.log message), a whole payload would fill screens
 * between the rows around it, so the table shows its start and says how much more there is and
 * where it is whole: json and md never shorten it. A table fitted to a terminal cuts it shorter.
 */
export const TABLE_SUMMARY_CHARACTERS = 2000;

/** The summary as the table shows it; characters are counted as code points, and a pair is never split. */
export function tableSummary(text: string, max = TABLE_SUMMARY_CHARACTERS): string {
  if (text.length <= max) return text;
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters.slice(0, max).join('')} … (${characters.length - max} more characters; --format json or md shows the whole summary)`;
}
