// The direct path for a whole JSONL file: DuckDB's read_json parses each line once, straight into
// the table, while Node (scan-lines.ts) counts the lines and judges the few that DuckDB's lenient
// reader cannot be trusted on. read_json gives one row per non-blank line, in order, and an
// all-NULL row for a line it cannot parse; so the k-th row is the k-th non-blank line, and
// only the all-NULL rows need a second look. Anything that breaks that correspondence refuses the
// file, and the caller reads it the staged way instead (stage-jsonl.ts).
import type { Database } from '../db/database.js';
import { literalPath } from '../db/literal-path.js';
import { InputError } from '../errors.js';
import type { LineLedger, Problem } from './line-ledger.js';
import { excerpt } from './strict-json.js';
import { densestChunkBytes, DUCKDB_CHUNK_ROWS, judgeLine, type LineScan, lineBytes, ScanRefused, scanLines } from './scan-lines.js';

export class DirectReadRefused extends Error {
  /** Refused from the line scan, before any statement: the transaction can go on with the staged reader. */
  constructor(message: string, readonly beforeReading = false) {
    super(message);
  }
}

export interface DirectSpec {
  table: string;
  /** The envelope's keys and DuckDB types (read_json `columns`). */
  columns: Record<string, string>;
  /** INSERT body over `source`, which has line_no and one column per envelope key. */
  projection: (source: string) => string;
  /** The table's columns the projection fills, in its order. */
  into: string[];
}

export interface DirectTarget {
  absPath: string;
  fileId: number;
  sessionId: string | null;
}

const CANNOT_STORE = 'valid JSON that DuckDB cannot store (lone surrogate escape?)';
/**
 * read_json's buffers take twice this from DuckDB's buffer pool; at 16 MiB (its default) they
 * left too little of a 128 MB pool for the insert (1 GiB home: 17.3 s, against 13.7–15.5 s at
 * 2 MiB). read_json still reads a longer line (a test loads a 3 MiB one), up to the longest line
 * read (MAX_LINE_BYTES): the scan refuses a file with a longer one.
 */
const MAX_LINE_BYTES = 2 * 1024 * 1024;
/**
 * Each row's line number is its ordinal plus the blank lines before it, counted in a list of
 * them: cheap for a few; a file with more blank lines than this is read the staged way.
 */
const MAX_BLANK = 64;

/**
 * read_json and the insert parse a chunk of rows at a time, taking up to eight times its bytes
 * from the buffer pool (byte-batches.ts): a file whose lines are denser than this somewhere is read
 * the staged way, in batches (2,048 lines of 8 KiB ran out of a 192 MB pool; one 8 MiB line did not).
 */
const MAX_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * read_json passes over a line of nothing but ASCII whitespace (form feeds and vertical tabs
 * included) without a row, where the scan lists it as malformed: the rows after it would take the
 * wrong line numbers, and the counts can still add up (a malformed line's all-NULL row landing on
 * the line passed over). Such a file is read the staged way. Its excerpt is the line's start.
 */
const PASSED_OVER = /^[ \t\r\v\f]+$/;

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`;
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

function readJson(columns: Record<string, string>): string {
  const spec = Object.entries(columns).map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`).join(', ');
  return `read_json($src, format='newline_delimited', ignore_errors=true, maximum_object_size=${MAX_LINE_BYTES}, columns={${spec}})`;
}

/** Line number of the k-th non-blank line (`ord`): k plus the blank lines before it. */
function lineOfOrdinal(blank: number[]): string {
  if (blank.length === 0) return 'ord';
  const before = blank.map((line, i) => line - (i + 1)); // non-blank lines before each blank one
  return `ord + len(list_filter([${before.join(', ')}], lambda b: b < ord))`;
}

/** Lines the table has no row for: between its rows, and after the last one. */
async function missingLines(db: Database, spec: DirectSpec, fileId: number, scan: LineScan): Promise<number[]> {
  const skip = new Set([...scan.blank, ...scan.malformed.keys()]);
  const runs = await db.all(
    `SELECT line, lead(line, 1, $after) OVER (ORDER BY line) AS next FROM ${spec.table} WHERE file_id = $file_id
     QUALIFY next <> line + 1
     UNION ALL SELECT 0, coalesce(min(line), $after) FROM ${spec.table} WHERE file_id = $file_id`,
    { file_id: fileId, after: scan.lines + 1 },
  );
  const missing: number[] = [];
  for (const row of runs.rows) {
    for (let line = (row.line as number) + 1; line < (row.next as number); line += 1) if (!skip.has(line)) missing.push(line);
  }
  return missing.sort((a, b) => a - b);
}

/** A line read_json gave no values for: a malformed line, or a valid object without envelope keys. */
async function judgeMissing(db: Database, spec: DirectSpec, target: DirectTarget, scan: LineScan, line: number): Promise<Omit<Problem, 'kind' | 'line'> | null> {
  const { offset, bytes } = lineBytes(target.absPath, scan, line);
  const problem = judgeLine(bytes);
  if (problem) return { byteOffset: offset, ...problem };
  const text = bytes.toString('utf8');
  const duckOk = (await db.all(`SELECT json_valid($text) AS ok`, { text })).rows[0].ok === true;
  if (!duckOk) return { byteOffset: offset, reason: CANNOT_STORE, excerpt: excerpt(text) };
  const value = JSON.parse(text) as Record<string, unknown>;
  if (Object.keys(spec.columns).some((key) => value[key] !== undefined && value[key] !== null)) {
    throw new DirectReadRefused(`${target.absPath}:${line}: read_json's rows do not line up with the file's lines`);
  }
  const nulls = Object.entries(spec.columns).map(([name, type]) => `NULL::${type} AS ${quoteId(name)}`).join(', ');
  await db.run(`INSERT INTO ${spec.table} (${spec.into.join(', ')}) ${spec.projection(`(SELECT ${line}::BIGINT AS line_no, ${nulls})`)}`, { file_id: target.fileId, session_id: target.sessionId });
  return null;
}

export async function loadJsonlDirect(db: Database, spec: DirectSpec, target: DirectTarget, scanning?: Promise<LineScan>): Promise<LineLedger> {
  let scan: LineScan;
  try {
    scan = await (scanning ?? scanLines(target.absPath));
  } catch (error) {
    if (error instanceof ScanRefused) throw new DirectReadRefused(`${target.absPath}: ${error.message}`, true);
    throw error;
  }
  if (scan.blank.length > MAX_BLANK) throw new DirectReadRefused(`${target.absPath}: ${scan.blank.length} blank lines`, true);
  const passedOver = [...scan.malformed].find(([, p]) => PASSED_OVER.test(p.excerpt));
  if (passedOver) throw new DirectReadRefused(`${target.absPath}:${passedOver[0]}: a line of whitespace read_json passes over`, true);
  const dense = densestChunkBytes(scan);
  if (dense > MAX_CHUNK_BYTES) throw new DirectReadRefused(`${target.absPath}: ${dense} bytes within ${DUCKDB_CHUNK_ROWS} lines or so`, true);
  const keys = Object.keys(spec.columns).map(quoteId);
  const excluded = [...scan.malformed.keys()];
  const source = `(SELECT * FROM (SELECT *, ${lineOfOrdinal(scan.blank)} AS line_no FROM (SELECT *, row_number() OVER () AS ord FROM ${readJson(spec.columns)}))
    WHERE NOT (${keys.map((k) => `${k} IS NULL`).join(' AND ')})${excluded.length ? ` AND line_no NOT IN (${excluded.join(', ')})` : ''})`;
  let inserted: number;
  try {
    inserted = await db.change(`INSERT INTO ${spec.table} (${spec.into.join(', ')}) ${spec.projection(source)}`, { src: literalPath(target.absPath), file_id: target.fileId, session_id: target.sessionId });
  } catch (error) {
    if (error instanceof InputError) throw error; // out of memory: the staged reader would not fare better
    throw new DirectReadRefused(`${target.absPath}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
  }
  const expected = scan.lines - scan.blank.length - excluded.length;
  if (inserted > expected) throw new DirectReadRefused(`${target.absPath}: read_json gave more rows than the file has lines (did it grow while being read?)`);
  const problems: Problem[] = [...scan.malformed].map(([line, p]) => ({ line, byteOffset: p.offset, kind: 'malformed', reason: p.reason, excerpt: p.excerpt }));
  if (inserted < expected) {
    const missing = await missingLines(db, spec, target.fileId, scan);
    if (missing.length !== expected - inserted) throw new DirectReadRefused(`${target.absPath}: read_json's rows do not line up with the file's lines`);
    for (const line of missing) {
      const problem = await judgeMissing(db, spec, target, scan, line);
      if (problem) problems.push({ line, kind: 'malformed', ...problem });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  const lastLine = problems.at(-1);
  if (!scan.terminated && lastLine?.line === scan.lines) lastLine.kind = 'truncated-tail';
  return {
    lines: scan.lines,
    valid: scan.lines - scan.blank.length - problems.length,
    blank: scan.blank.length,
    malformed: problems.length,
    bytes: scan.bytes,
    completeBytes: scan.terminated ? scan.bytes : scan.lastLineStart,
    completeLines: scan.terminated ? scan.lines : scan.lines - 1,
    problems,
  };
}
