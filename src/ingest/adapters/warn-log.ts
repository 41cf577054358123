// warn.log (formats doc §7): `[<ISO>] [WARN|ERROR] [<CATEGORY>] <message>[ <JSON data>]`.
// A message may contain newlines, so a line that is not a header continues the record above it.
import type { LineLedger, Problem } from '../line-ledger.js';
import { readLines } from '../read-lines.js';
import { excerpt } from '../strict-json.js';
import type { Adapter } from './adapter.js';

const HEADER = /^\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)\] \[([A-Z]+)\] \[([^\]]*)\] ?(.*)$/;

interface WarnRecord {
  line: number;
  endLine: number;
  ts: string;
  level: string;
  category: string;
  parts: string[];
}

/** The logger appends ` ${JSON.stringify(data)}` to the last line; find the first suffix that is JSON. */
export function splitTrailingData(lastLine: string): { message: string; data: string | null } {
  for (let i = lastLine.indexOf(' '); i !== -1; i = lastLine.indexOf(' ', i + 1)) {
    const rest = lastLine.slice(i + 1);
    if (!/^[[{"]/.test(rest)) continue;
    try {
      JSON.parse(rest);
      return { message: lastLine.slice(0, i), data: rest };
    } catch {
      // not JSON from here; try the next space
    }
  }
  return { message: lastLine, data: null };
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
    for (const line of lines) {
      const header = HEADER.exec(line.text);
      if (header) {
        records.push({ line: line.number, endLine: line.number, ts: header[1], level: header[2], category: header[3], parts: [header[4]] });
        pendingBlank = [];
      } else if (line.text.trim() === '') {
        blank += 1;
        pendingBlank.push(line.text);
      } else if (records.length > 0) {
        const record = records[records.length - 1];
        record.parts.push(...pendingBlank, line.text);
        record.endLine = line.number;
        pendingBlank = [];
      } else {
        problems.push({
          line: line.number,
          byteOffset: line.byteOffset,
          kind: line.terminated ? 'malformed' : 'truncated-tail',
          reason: 'not a `[time] [LEVEL] [CATEGORY]` record header, and no record precedes it to continue',
          excerpt: excerpt(line.text),
        });
      }
    }
    const rows = records.map((r) => {
      const last = splitTrailingData(r.parts[r.parts.length - 1]);
      const message = [...r.parts.slice(0, -1), last.message].join('\n');
      return [target.fileId, target.file.sessionId, r.line, r.endLine, r.ts, r.level, r.category, message, last.data];
    });
    const store = async () => target.batch.add('warn_lines', ['file_id', 'session_id', 'line', 'end_line', 'ts', 'level', 'category', 'message', 'data'], rows);
    // In time order, not text order (fractions vary in length), and only the times DuckDB can
    // store: JavaScript rolls 2026-02-30 over into March, DuckDB stores NULL for it.
    const times = records.map((r) => Date.parse(r.ts)).filter((ms, k) => !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === records[k].ts.slice(0, 10)).sort((a, b) => a - b).map((ms) => new Date(ms).toISOString());
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
