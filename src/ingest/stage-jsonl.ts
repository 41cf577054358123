// Reads one JSONL file (or its new tail) into TEMP TABLE staged(line_no, line, verdict) and
// accounts for every line. DuckDB splits lines (Node, split-lines.ts, when DuckDB cannot) and
// fast-paths the common case; any line whose verdict could depend on DuckDB's lenient JSON reader
// goes to the strict judge (strict-json.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/database.js';
import { literalPath } from '../db/literal-path.js';
import { makeTempDir, removeTempDir } from '../temp-dirs.js';
import { countLines } from './count-lines.js';
import { type LineLedger, type Problem } from './line-ledger.js';
import { BIG_LINE_BYTES, MAX_LINE_BYTES } from './line-rules.js';
import { duplicateKeyReason, duplicateTopLevelKeys } from './duplicate-keys.js';
import { Refused } from './refused.js';
import { splitLines, type Unread } from './split-lines.js';
import { EXCERPT_CHARS, excerpt, strictJsonObject } from './strict-json.js';

// yyjson, as DuckDB configures it, also accepts trailing commas and NaN/Infinity (any case,
// optionally signed) as values. A line without these byte patterns gets the same verdict from it as
// from a strict RFC 8259 parser; a line with them (even inside a string) goes to the strict judge.
const LENIENT_SUSPECT = `,[ \\t\\r\\n]*[\\]}]|[:,\\[][ \\t\\r\\n]*[-+]?[IiNn][NnAa]`;

// It refuses a line of MAX_LINE_BYTES or more: Node splits such a file, and lists what is too long.
const READ_LINES = `read_csv($src, columns={'line': 'VARCHAR'}, delim='\\x01', quote='', escape='', header=false,
  auto_detect=false, new_line='\\n', max_line_size=${MAX_LINE_BYTES}, buffer_size=${2 * MAX_LINE_BYTES})`;

/** Text of doubtful lines held in Node at once, at most (one longer line is fetched alone). */
const JUDGE_BYTES = 16 * 1024 * 1024;

export interface StageRange {
  absPath: string;
  startOffset: number;
  lineBase: number;
  /**
   * Inside a transaction DuckDB's refusal aborts the transaction, so the Node reader cannot take
   * over there: the caller gets a refusal (refused.ts), rolls back and reads the file on its own.
   */
  inTransaction: boolean;
}

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
  /** The envelope keys whose values are stored: a valid line naming one twice is listed (duplicate-keys.ts). */
  keys: string[];
}

/** Whether json_transform can take the line: DuckDB parses it as one object. */
const PARSES = `json_valid(line) AND (starts_with(line, '{') OR json_type(line) = 'OBJECT')`;

/**
 * json_valid, then json_transform once: the struct kept in `staged.e` is the adapter's input, so
 * the insert does not parse the line again. Only a line starting with '{' can be valid without the
 * strict judge; any other line that DuckDB reads as an object (leading spaces) gets its struct too,
 * for when the judge accepts it. json_valid before the transform: try() around it is slower.
 * With `big`, a line longer than BIG_LINE_BYTES is left unparsed, verdict 'big', no text: it is
 * classified alone, with `parses` worked out beforehand.
 */
function classify(source: string, shape: StageShape, big = BIG_LINE_BYTES, parses = PARSES): string {
  // A line naming an envelope key twice keeps its text, for duplicateTopLevelKeys.
  const twice = shape.keys.map((k) => `strlen(line) - strlen(replace(line, '"${k}"', '')) >= ${2 * (k.length + 2)}`).join(' OR ') || 'false';
  return `SELECT line_no, len, verdict, e, coalesce(${twice}, false) AS twice, CASE WHEN verdict IN ('valid', 'big') AND NOT ${shape.keepValidText} AND NOT coalesce(${twice}, false) THEN NULL ELSE line END AS line
    FROM (
      SELECT line_no, line, len, e,
        CASE WHEN len > ${big} THEN 'big'
             WHEN e IS NOT NULL AND starts_with(line, '{') AND NOT regexp_matches(line, '${LENIENT_SUSPECT}') THEN 'valid'
             WHEN line IS NULL OR trim(line, ' \t\r') = '' THEN 'blank'
             ELSE 'check' END AS verdict
      FROM (SELECT line_no, line, len,
              CASE WHEN len > ${big} THEN NULL
                   WHEN ${parses} THEN json_transform(line, '${shape.shape}') END AS e
            FROM (${source})))`;
}

/** The lines classify left for a statement each (not those too long to read: they have no text). */
async function bigLines(db: Database): Promise<number[]> {
  return (await db.all(`SELECT line_no FROM staged WHERE verdict = 'big' AND len <= ${MAX_LINE_BYTES} ORDER BY line_no`)).rows.map((r) => r.line_no as number);
}

/**
 * DuckDB's line reader into `staged`; false when Node must split the file instead: read_csv
 * refused it, its lines do not cover the file's bytes (it gives no row, and no error, for a
 * last line longer than its buffer, and drops a byte order mark), or it gave another number of
 * rows than the file has '\n'-ended lines (it ends a row at a lone '\r' after a line's leading
 * space, or at the very first byte, and counts that '\r' as the row's newline: the bytes add up),
 * or its last row ends at a final '\r' that is no newline (then they come out one byte short).
 */
async function stageWithDuckDb(db: Database, range: StageRange, shape: StageShape): Promise<boolean | Refused> {
  const src = range.startOffset > 0 ? copyTail(range.absPath, range.startOffset) : range.absPath;
  try {
    const size = fs.statSync(src).size;
    const counting = countLines(src);
    counting.catch(() => undefined); // awaited below, unless DuckDB refuses the file first
    await db.run(
      `CREATE OR REPLACE TEMP TABLE staged AS ${classify(`SELECT row_number() OVER () + $base AS line_no, line, coalesce(strlen(line), 0) AS len FROM ${READ_LINES}`, shape)}`,
      { src: literalPath(src), base: range.lineBase },
    );
    const read = (await db.all(`SELECT coalesce(sum(len + 1), 0) AS bytes, count(*) AS lines FROM staged`)).rows[0];
    const file = await counting;
    // Each row counts one byte for its newline, also the unterminated last one. A long line's
    // text is gone from `staged`: Node's splitter keeps it, to classify it alone.
    return read.bytes === size + (file.terminated ? 0 : 1) && read.lines === file.lines && (await bigLines(db)).length === 0;
  } catch (error) {
    if (range.inTransaction) return new Refused('in-transaction', `${range.absPath}: ${error}`);
    return false;
  } finally {
    if (src !== range.absPath) removeTempDir(path.dirname(src));
  }
}

/** Node's line splitter into `staged`; the lines it could not hand over as text are malformed already. */
async function stageWithNode(db: Database, range: StageRange, shape: StageShape): Promise<Map<number, Unread>> {
  const unread = await splitLines(db, range.absPath, range.startOffset, range.lineBase);
  // Read first, then classify: in one statement a line near MAX_LINE_BYTES exhausts the pool.
  await db.run(`CREATE OR REPLACE TEMP TABLE staged AS ${classify('SELECT line_no, line, len FROM node_lines', shape)}`);
  for (const lineNo of await bigLines(db)) {
    const line = `SELECT line_no, line, len FROM node_lines WHERE line_no = ${lineNo}`;
    // json_valid in a statement of its own: within one, its memory and json_transform's add up,
    // which for a line near MAX_LINE_BYTES is about all of a --db load's pool.
    const parses = (await db.all(`SELECT ${PARSES} AS ok FROM (${line})`)).rows[0].ok === true;
    await db.run(`DELETE FROM staged WHERE line_no = ${lineNo}`);
    await db.run(`INSERT INTO staged ${classify(line, shape, MAX_LINE_BYTES, String(parses))}`);
  }
  await db.run('DROP TABLE node_lines');
  if (unread.size) await db.run(`UPDATE staged SET verdict = 'malformed' WHERE line_no IN (${[...unread.keys()].join(',')})`);
  return unread;
}

/**
 * The strict judge over the lines DuckDB could not vouch for, fetched a few MiB of text at a time
 * (all at once, a file of long doubtful lines would be held whole).
 */
async function judgeSuspects(db: Database, malformed: Map<number, string>): Promise<void> {
  const suspects = (await db.all(`SELECT line_no, len FROM staged WHERE verdict = 'check' ORDER BY line_no`)).rows;
  const valid: number[] = [];
  for (let k = 0; k < suspects.length;) {
    const first = suspects[k].line_no as number;
    for (let bytes = 0; k < suspects.length && (bytes === 0 || bytes + (suspects[k].len as number) <= JUDGE_BYTES); k += 1) bytes += suspects[k].len as number;
    const last = suspects[k - 1].line_no as number;
    const batch = await db.all(`SELECT line_no, line, e IS NOT NULL AS duck_ok FROM staged WHERE verdict = 'check' AND line_no BETWEEN $first AND $last`, { first, last });
    for (const row of batch.rows) {
      const lineNo = row.line_no as number;
      const verdict = strictJsonObject(row.line as string);
      if (!verdict.ok) malformed.set(lineNo, verdict.reason);
      else if (row.duck_ok !== true) malformed.set(lineNo, 'valid JSON that DuckDB cannot store (lone surrogate escape?)');
      else valid.push(lineNo);
    }
  }
  if (valid.length) await db.run(`UPDATE staged SET verdict = 'valid' WHERE line_no IN (${valid.join(',')})`);
  if (malformed.size) await db.run(`UPDATE staged SET verdict = 'malformed' WHERE line_no IN (${[...malformed.keys()].join(',')})`);
}

/** The valid lines that name an envelope key twice (duplicate-keys.ts), as the ledger lists them. */
async function duplicateKeyLines(db: Database, startOffset: number): Promise<Problem[]> {
  if ((await db.all(`SELECT count(*) AS n FROM staged WHERE verdict = 'valid' AND twice`)).rows[0].n === 0) return [];
  const rows = await db.all(`SELECT line_no, line, off FROM (
      SELECT line_no, line, verdict, twice, coalesce(sum(len + 1) OVER (ORDER BY line_no ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS off FROM staged)
    WHERE verdict = 'valid' AND twice AND line IS NOT NULL ORDER BY line_no`);
  return rows.rows.flatMap((row) => {
    const text = row.line as string;
    const keys = duplicateTopLevelKeys(text);
    if (keys.length === 0) return [];
    return [{ line: row.line_no as number, byteOffset: startOffset + (row.off as number), kind: 'duplicate-key' as const, reason: duplicateKeyReason(keys), excerpt: excerpt(text) }];
  });
}

export async function stageJsonl(db: Database, range: StageRange, shape: StageShape): Promise<LineLedger | Refused> {
  const byDuckDb = await stageWithDuckDb(db, range, shape);
  if (byDuckDb instanceof Refused) return byDuckDb;
  const unread = byDuckDb ? new Map<number, Unread>() : await stageWithNode(db, range, shape);
  const reasons = new Map([...unread].map(([lineNo, u]) => [lineNo, u.reason]));
  await judgeSuspects(db, reasons);
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
    // Enough of each line for its excerpt, not the whole line.
    const offsets = await db.all(
      `SELECT line_no, substr(line, 1, 2 * ${EXCERPT_CHARS}) AS head, coalesce(sum(len + 1) OVER (ORDER BY line_no ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS off
       FROM staged QUALIFY verdict = 'malformed' ORDER BY line_no`,
    );
    for (const row of offsets.rows) {
      const lineNo = row.line_no as number;
      problems.push({
        line: lineNo,
        byteOffset: range.startOffset + (row.off as number),
        kind: !terminated && lineNo === totals.last_no ? 'truncated-tail' : 'malformed',
        reason: reasons.get(lineNo) ?? 'unreadable',
        excerpt: unread.get(lineNo)?.excerpt ?? excerpt((row.head as string | null) ?? ''),
      });
    }
  }
  const malformed = problems.length;
  if (shape.keys.length > 0) problems.push(...(await duplicateKeyLines(db, range.startOffset)));
  problems.sort((a, b) => a.line - b.line);
  const lastLen = (totals.last_len as number) ?? 0;
  return {
    lines,
    valid: totals.valid ?? 0,
    blank: totals.blank ?? 0,
    malformed,
    bytes,
    completeBytes: range.startOffset + (terminated ? bytes : bytes - lastLen),
    completeLines: range.lineBase + (terminated ? lines : lines - 1),
    problems,
  };
}
