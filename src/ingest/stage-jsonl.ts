// Reads one JSONL file (or its new tail) into TEMP TABLE staged(line_no, line, verdict) and
// accounts for every line. DuckDB splits lines and fast-paths the common case; any line whose
// verdict could depend on DuckDB's lenient JSON reader goes to the strict judge (strict-json.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/database.js';
import { literalPath } from '../db/literal-path.js';
import { decodeLossy, invalidUtf8Reason } from './decode-utf8.js';
import { makeTempDir, removeTempDir } from '../temp-dirs.js';
import { type LineLedger, type Problem } from './line-ledger.js';
import { excerpt, strictJsonObject } from './strict-json.js';

// yyjson, as DuckDB configures it, also accepts trailing commas and NaN/Infinity (any case,
// optionally signed) as values. A line without these byte patterns gets the same verdict from it as
// from a strict RFC 8259 parser; a line with them (even inside a string) goes to the strict judge.
const LENIENT_SUSPECT = `,[ \\t\\r\\n]*[\\]}]|[:,\\[][ \\t\\r\\n]*[-+]?[IiNn][NnAa]`;

const READ_LINES = `read_csv($src, columns={'line': 'VARCHAR'}, delim='\\x01', quote='', escape='', header=false,
  auto_detect=false, new_line='\\n', max_line_size=8388608, buffer_size=16777216)`;

export interface StageRange {
  absPath: string;
  startOffset: number;
  lineBase: number;
  /**
   * Inside a transaction DuckDB's refusal aborts the transaction, so the Node reader cannot take
   * over there: the caller gets ReaderRefused, rolls back and retries the file on its own.
   */
  inTransaction: boolean;
}

export class ReaderRefused extends Error {}

function byteAt(absPath: string, position: number): number | null {
  if (position < 0) return null;
  const fd = fs.openSync(absPath, 'r');
  try {
    const one = Buffer.alloc(1);
    return fs.readSync(fd, one, 0, 1, position) === 1 ? one[0] : null;
  } finally {
    fs.closeSync(fd);
  }
}

/** The new tail of a grown file, copied to a temp file (never written inside the input tree). */
function copyTail(absPath: string, start: number): string {
  const tmp = path.join(makeTempDir('trajaudit-'), 'tail.jsonl');
  const input = fs.openSync(absPath, 'r');
  const output = fs.openSync(tmp, 'w');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let position = start;
    for (let n; (n = fs.readSync(input, chunk, 0, chunk.length, position)) > 0; position += n) fs.writeSync(output, chunk, 0, n);
  } finally {
    fs.closeSync(input);
    fs.closeSync(output);
  }
  return tmp;
}

export interface StageShape {
  /** json_transform structure of the envelope; the parsed struct is kept as column `e`. */
  shape: string;
  /** Keep the text of valid lines too (for adapters that store the whole record). */
  keepValidText: boolean;
}

/**
 * json_valid, then json_transform once: the struct kept in `staged.e` is the adapter's input, so
 * the insert does not parse the line again. Only a line starting with '{' can be valid without the
 * strict judge; any other line that DuckDB reads as an object (leading spaces) gets its struct too,
 * for when the judge accepts it. json_valid before the transform: try() around it is slower.
 */
function classify(source: string, shape: StageShape): string {
  return `CREATE OR REPLACE TEMP TABLE staged AS
    SELECT line_no, len, verdict, e, CASE WHEN verdict = 'valid' AND NOT ${shape.keepValidText} THEN NULL ELSE line END AS line
    FROM (
      SELECT line_no, line, len, e,
        CASE WHEN e IS NOT NULL AND starts_with(line, '{') AND NOT regexp_matches(line, '${LENIENT_SUSPECT}') THEN 'valid'
             WHEN line IS NULL OR trim(line, ' \t\r') = '' THEN 'blank'
             ELSE 'check' END AS verdict
      FROM (SELECT line_no, line, len,
              CASE WHEN json_valid(line) AND (starts_with(line, '{') OR json_type(line) = 'OBJECT') THEN json_transform(line, '${shape.shape}') END AS e
            FROM (${source})))`;
}

async function stageWithDuckDb(db: Database, src: string, lineBase: number, shape: StageShape): Promise<void> {
  await db.run(
    classify(`SELECT row_number() OVER () + $base AS line_no, line, coalesce(strlen(line), 0) AS len FROM ${READ_LINES}`, shape),
    { src: literalPath(src), base: lineBase },
  );
}

/** For files DuckDB's line reader refuses (CRLF, invalid UTF-8, stray control bytes): Node splits them. */
async function stageWithNode(db: Database, src: string, lineBase: number, shape: StageShape): Promise<Map<number, string>> {
  const undecodable = new Map<number, string>();
  const texts = new Map<number, string>();
  const bytes = fs.readFileSync(src);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const tmpDir = makeTempDir('trajaudit-');
  const wrapped = path.join(tmpDir, 'staged.jsonl');
  const out: string[] = [];
  let start = 0;
  let n = lineBase;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    n += 1;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(start, end));
    } catch {
      const lossy = decodeLossy(bytes.subarray(start, end));
      undecodable.set(n, invalidUtf8Reason(lossy.badByte ?? 0));
      text = lossy.text;
      texts.set(n, text);
    }
    out.push(JSON.stringify({ n, line: text, len: end - start }));
    start = end + 1;
  }
  fs.writeFileSync(wrapped, out.length ? `${out.join('\n')}\n` : '');
  // Read first, then classify: in one statement a line of ~8 MiB ran out of a 192 MB pool.
  await db.run(
    `CREATE OR REPLACE TEMP TABLE wrapped_lines AS SELECT n AS line_no, line, len
     FROM read_json($src, format='newline_delimited', columns={n: 'BIGINT', line: 'VARCHAR', len: 'BIGINT'})`,
    { src: literalPath(wrapped) },
  );
  await db.run(classify('SELECT line_no, line, len FROM wrapped_lines', shape));
  await db.run('DROP TABLE wrapped_lines');
  // The line's text (bad bytes as U+FFFD) is kept for the excerpt: classify drops it when DuckDB calls it valid.
  for (const n of undecodable.keys()) {
    await db.run(`UPDATE staged SET verdict = 'malformed', line = $text WHERE line_no = $n`, { n, text: texts.get(n)! });
  }
  removeTempDir(tmpDir);
  return undecodable;
}

async function judgeSuspects(db: Database, malformed: Map<number, string>): Promise<Map<number, string>> {
  const suspects = await db.all(`SELECT line_no, line, e IS NOT NULL AS duck_ok FROM staged WHERE verdict = 'check'`);
  const valid: number[] = [];
  for (const row of suspects.rows) {
    const lineNo = row.line_no as number;
    const text = row.line as string;
    const verdict = strictJsonObject(text);
    if (!verdict.ok) malformed.set(lineNo, verdict.reason);
    else if (row.duck_ok !== true) malformed.set(lineNo, 'valid JSON that DuckDB cannot store (lone surrogate escape?)');
    else valid.push(lineNo);
  }
  if (valid.length) await db.run(`UPDATE staged SET verdict = 'valid' WHERE line_no IN (${valid.join(',')})`);
  if (malformed.size) await db.run(`UPDATE staged SET verdict = 'malformed' WHERE line_no IN (${[...malformed.keys()].join(',')})`);
  return malformed;
}

export async function stageJsonl(db: Database, range: StageRange, shape: StageShape): Promise<LineLedger> {
  const src = range.startOffset > 0 ? copyTail(range.absPath, range.startOffset) : range.absPath;
  try {
    let known = new Map<number, string>();
    try {
      await stageWithDuckDb(db, src, range.lineBase, shape);
    } catch (error) {
      if (range.inTransaction) throw new ReaderRefused(`${range.absPath}: ${error}`);
      known = await stageWithNode(db, src, range.lineBase, shape);
    }
    const reasons = await judgeSuspects(db, known);
    const totals = (
      await db.all(`SELECT count(*) AS lines, count(*) FILTER (verdict = 'valid') AS valid,
        count(*) FILTER (verdict = 'blank') AS blank, coalesce(sum(len + 1), 0) AS bytes,
        max(line_no) AS last_no, arg_max(len, line_no) AS last_len FROM staged`)
    ).rows[0] as Record<string, number | null>;
    const lines = totals.lines ?? 0;
    let bytes = totals.bytes ?? 0;
    const terminated = lines === 0 || byteAt(range.absPath, range.startOffset + bytes - 1) === 10;
    if (!terminated) bytes -= 1;
    const problems: Problem[] = [];
    if (reasons.size) {
      const offsets = await db.all(
        `SELECT line_no, line, coalesce(sum(len + 1) OVER (ORDER BY line_no ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS off
         FROM staged QUALIFY verdict = 'malformed' ORDER BY line_no`,
      );
      for (const row of offsets.rows) {
        const lineNo = row.line_no as number;
        const text = (row.line as string) ?? '';
        problems.push({
          line: lineNo,
          byteOffset: range.startOffset + (row.off as number),
          kind: !terminated && lineNo === totals.last_no ? 'truncated-tail' : 'malformed',
          reason: reasons.get(lineNo) ?? 'unreadable',
          excerpt: excerpt(text),
        });
      }
    }
    const lastLen = (totals.last_len as number) ?? 0;
    return {
      lines,
      valid: totals.valid ?? 0,
      blank: totals.blank ?? 0,
      malformed: problems.length,
      bytes,
      completeBytes: range.startOffset + (terminated ? bytes : bytes - lastLen),
      completeLines: range.lineBase + (terminated ? lines : lines - 1),
      problems,
    };
  } finally {
    if (src !== range.absPath) removeTempDir(path.dirname(src));
  }
}
