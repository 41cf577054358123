// warn.log (docs/formats.md#warnlog): `[<ISO>] [WARN|ERROR] [<CATEGORY>] <message>[ <JSON data>]`.
// A message may contain newlines, so a line that is not a header continues the record above it.
import { ISO_TIME } from '../../../db/read-time.js';
import { invalidUtf8Reason } from '../../../ingest/decode-utf8.js';
import type { LineLedger, Problem } from '../../../ingest/line-ledger.js';
import { loneSurrogateEscape } from '../../../ingest/lone-surrogate.js';
import { MAX_LINE_BYTES } from '../../../ingest/line-rules.js';
import { readLines, type TextLine } from '../../../ingest/read-lines.js';
import { excerpt } from '../../../ingest/strict-json.js';
import type { Adapter } from '../../../ingest/adapters/adapter.js';

/**
 * A record's first line. Its time is any the load reads (read-time.ts), an offset or a space
 * included: a header whose time sid-code would not write is still a record, never folded into the
 * record above it (its level and category lost). Its message is the rest of the line, whatever it
 * holds: the logger writes it unmasked (docs/formats.md#warnlog), and a lone CR, U+2028 or U+2029 in it
 * (which `.` does not match) made the line no header.
 */
const HEADER = new RegExp(`^\\[(${ISO_TIME.source.slice(1, -1)})\\] \\[([A-Z]+)\\] \\[([^\\]]*)\\] ?([\\s\\S]*)$`);

interface WarnRecord {
  line: number;
  endLine: number;
  ts: string;
  level: string;
  category: string;
  parts: string[];
  /** Its non-blank lines: a record is stored whole or not at all. */
  source: TextLine[];
}

/**
 * The logger appends ` ${JSON.stringify(data)}` to the last line: the message is cut at the first
 * space after which the rest of the line is one JSON value starting with `[`, `{` or `"`. Only
 * the few starts that can be such a value are parsed (trailingJsonStarts): parsing after every
 * space took minutes on one long line that holds many spaces and no closing bracket.
 */
export function splitTrailingData(lastLine: string): { message: string; data: string | null } {
  for (const start of trailingJsonStarts(lastLine)) {
    try {
      JSON.parse(lastLine.slice(start));
      return { message: lastLine.slice(0, start - 1), data: lastLine.slice(start) };
    } catch {
      // not JSON from here; try the next start
    }
  }
  return { message: lastLine, data: null };
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPENERS = new Set([91, 123]); // [ {
const CLOSERS = new Set([93, 125]); // ] }

/**
 * The positions after a space where a JSON value that runs to the end of the line (trailing
 * whitespace aside) can start, in order; at most three, found in linear time. In such a value a
 * quote is a string's delimiter exactly when an even number of backslashes precedes it, so the
 * delimiters are the same whatever the start, and whether a place is inside a string depends
 * only on the parity of the delimiters before the start. A string value starts at the delimiter
 * before the last one; an object or array, for either parity, at the bracket that closes the
 * last one counting backwards. Every other start fails JSON.parse.
 */
function trailingJsonStarts(line: string): number[] {
  let end = line.length;
  while (end > 0 && ' \t\n\r'.includes(line[end - 1])) end -= 1;
  const parity = new Uint8Array(end + 1); // delimiters before each position, mod 2
  const delimiters: number[] = [];
  for (let p = 0, backslashes = 0; p < end; p += 1) {
    parity[p + 1] = parity[p];
    const c = line.charCodeAt(p);
    if (c === QUOTE && backslashes % 2 === 0) {
      parity[p + 1] ^= 1;
      delimiters.push(p);
    }
    backslashes = c === BACKSLASH ? backslashes + 1 : 0;
  }
  const starts = new Set<number>();
  const last = line.charCodeAt(end - 1);
  if (last === QUOTE && delimiters.at(-1) === end - 1 && delimiters.length >= 2) starts.add(delimiters.at(-2)!);
  if (CLOSERS.has(last)) {
    for (const outside of [0, 1]) {
      for (let p = end - 1, depth = 0; p >= 0; p -= 1) {
        if (parity[p] !== outside) continue;
        const c = line.charCodeAt(p);
        if (CLOSERS.has(c)) depth += 1;
        else if (OPENERS.has(c) && --depth === 0) {
          starts.add(p);
          break;
        }
      }
    }
  }
  return [...starts].filter((p) => p > 0 && line[p - 1] === ' ').sort((a, b) => a - b);
}

/**
 * The date a header's time is written with exists (2026-02-30 does not). Its own date, not the
 * date in UTC: a time with an offset (`2026-08-01T01:00:00+05:00`) is on another UTC day, and
 * comparing the two left every such header out of the file's time range.
 */
function onTheCalendar(ts: string): boolean {
  const [year, month, day] = ts.replace(/^\+/, '').split(/[-T ]/, 3).map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const warnLog: Adapter = {
  kind: 'warn-log',
  tables: ['warn_lines'],
  appendable: false,
  timed: true,
  async read(target) {
    const { lines, bytes } = readLines(target.file.absPath);
    const records: WarnRecord[] = [];
    const problems: Problem[] = [];
    let blank = 0;
    let pendingBlank: string[] = [];
    const problem = (line: TextLine, kind: Problem['kind'], reason: string, text = line.text) => problems.push({ line: line.number, byteOffset: line.byteOffset, kind, reason, excerpt: excerpt(text) });
    // A line too long to read ends the record it is in: what follows it, up to the next header, is listed too.
    let unreadAt: number | null = null;
    for (const line of lines) {
      const header = HEADER.exec(line.text);
      if (line.unread) {
        problem(line, line.terminated ? 'malformed' : 'truncated-tail', line.unread.reason, line.unread.excerpt);
        unreadAt = line.number;
        pendingBlank = [];
      } else if (line.blank) {
        blank += 1;
        pendingBlank.push(line.text);
      } else if (!line.terminated) {
        // The logger ends every record with a newline (docs/formats.md#warnlog): a line without one is a
        // torn write, even one that looks whole, and it must not be glued onto the record above.
        problem(line, 'truncated-tail', 'no newline at the end: sid-code ends every warn.log record with one, so this write was cut short');
      } else if (header) {
        records.push({ line: line.number, endLine: line.number, ts: header[1], level: header[2], category: header[3], parts: [header[4]], source: [line] });
        pendingBlank = [];
        unreadAt = null;
      } else if (unreadAt !== null) {
        problem(line, 'malformed', `continues the record of line ${unreadAt}, which is longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB: not read`);
      } else if (records.length > 0) {
        const record = records[records.length - 1];
        for (const blank of pendingBlank) record.parts.push(blank); // a spread would stop at some 100,000 blank lines
        record.parts.push(line.text);
        record.source.push(line);
        record.endLine = line.number;
        pendingBlank = [];
      } else {
        problem(line, 'malformed', line.badByte !== null ? invalidUtf8Reason(line.badByte) : 'not a `[time] [LEVEL] [CATEGORY]` record header, and no record precedes it to continue');
      }
    }
    const stored = records.filter((r) => {
      const bad = r.source.find((l) => l.badByte !== null);
      if (bad === undefined) return true;
      const whole = r.source.length > 1 ? `; the whole record (${r.source.length} lines) is unread` : '';
      for (const l of r.source) {
        problem(l, 'malformed', l.badByte !== null ? `${invalidUtf8Reason(l.badByte)}${whole}` : `part of a warn.log record that is unread (line ${bad.number}: ${invalidUtf8Reason(bad.badByte!)})`);
      }
      return false;
    });
    problems.sort((a, b) => a.line - b.line);
    const rows = stored.map((r) => {
      const lastLine = r.parts[r.parts.length - 1];
      const split = splitTrailingData(lastLine);
      // DuckDB's JSON cannot hold half a surrogate pair (lone-surrogate.ts): such trailing JSON
      // stays in the message, as written, and data is NULL, so nothing is lost.
      const last = split.data !== null && loneSurrogateEscape(split.data) ? { message: lastLine, data: null } : split;
      const message = [...r.parts.slice(0, -1), last.message].join('\n');
      return [target.fileId, target.file.sessionId, r.line, r.endLine, r.ts, r.level, r.category, message, last.data];
    });
    // A header time DuckDB cannot read (2026-02-30) is NULL in ts; ts_unread keeps it as written.
    const store = async () => target.batch.add('warn_lines', ['file_id', 'session_id', 'line', 'end_line', 'ts', 'level', 'category', 'message', 'data'], rows, { column: 'ts_unread', of: 'ts' });
    // In time order, not text order (fractions vary in length), and only the times DuckDB can
    // store: JavaScript rolls 2026-02-30 over into March, DuckDB stores NULL for it.
    const times = stored.map((r) => Date.parse(r.ts)).filter((ms, k) => !Number.isNaN(ms) && onTheCalendar(stored[k].ts)).sort((a, b) => a - b).map((ms) => new Date(ms).toISOString());
    const terminated = lines.length === 0 || lines[lines.length - 1].terminated;
    const ledger = {
      lines: lines.length,
      valid: lines.length - blank - problems.length,
      blank,
      malformed: problems.length,
      bytes,
      completeBytes: bytes,
      completeLines: terminated ? lines.length : lines.length - 1,
      problems,
      timeRange: { min: times[0] ?? null, max: times[times.length - 1] ?? null },
    };
    return { ledger, store };
  },
};

export default warnLog;
