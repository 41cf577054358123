// The direct path for whole JSONL files: DuckDB's read_json parses each line once, straight into
// the table, while Node (scan-lines.ts) counts the lines and judges the few that DuckDB's lenient
// reader cannot be trusted on. read_json gives one row per non-blank line, in order, and an
// all-NULL row for a line it cannot parse; so a file's k-th row is its k-th non-blank line, and
// only the all-NULL rows need a second look. Anything that breaks that correspondence refuses the
// files, and the caller reads them again, one at a time, and then the staged way (stage-jsonl.ts).
import type { Database, Params } from '../db/database.js';
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
  /** INSERT body over `source`, which has file_id, file_session_id, line_no and one column per envelope key. */
  projection: (source: string) => string;
  /** The table's columns the projection fills, in its order. */
  into: string[];
}

export interface DirectTarget {
  absPath: string;
  fileId: number;
  sessionId: string | null;
  /** The file's line scan, when the caller started it early (it overlaps the previous file's insert). */
  scanning?: Promise<LineScan>;
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

/** read_json over a list of files; with `filename`, each row holds its file's path there. */
function readJson(columns: Record<string, string>, files: string, filename: boolean): string {
  const spec = Object.entries(columns).map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`).join(', ');
  return `read_json(${files}, format='newline_delimited', ignore_errors=true, maximum_object_size=${MAX_LINE_BYTES}, filename=${filename}, columns={${spec}})`;
}

/** Per file, the lines the table has no row for (between its rows, and after the last one) that its scan did not set aside. */
async function missingLines(db: Database, spec: DirectSpec, files: { target: DirectTarget; scan: LineScan }[]): Promise<Map<DirectTarget, number[]>> {
  const ids = files.map(({ target }) => target.fileId).join(', ');
  const runs = await db.all(
    `SELECT file_id, line, lead(line) OVER (PARTITION BY file_id ORDER BY line) AS next FROM ${spec.table} WHERE file_id IN (${ids})
     QUALIFY next IS NULL OR next <> line + 1
     UNION ALL SELECT file_id, 0, min(line) FROM ${spec.table} WHERE file_id IN (${ids}) GROUP BY file_id`,
  );
  const byFile = new Map<number, { line: number; next: number | null }[]>();
  for (const row of runs.rows) byFile.set(row.file_id as number, [...(byFile.get(row.file_id as number) ?? []), { line: row.line as number, next: row.next as number | null }]);
  const missing = new Map<DirectTarget, number[]>();
  for (const { target, scan } of files) {
    const skip = new Set([...scan.blank, ...scan.malformed.keys()]);
    const lines: number[] = [];
    for (const run of byFile.get(target.fileId) ?? [{ line: 0, next: null }]) {
      for (let line = run.line + 1; line < (run.next ?? scan.lines + 1); line += 1) if (!skip.has(line)) lines.push(line);
    }
    missing.set(target, lines.sort((x, y) => x - y));
  }
  return missing;
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
  await db.run(`INSERT INTO ${spec.table} (${spec.into.join(', ')}) ${spec.projection(`(SELECT $file_id AS file_id, $session_id AS file_session_id, ${line}::BIGINT AS line_no, ${nulls})`)}`, { file_id: target.fileId, session_id: target.sessionId });
  return null;
}

/** The file's line scan, or DirectReadRefused (before reading) when read_json cannot be trusted with it. */
async function admit(target: DirectTarget): Promise<LineScan> {
  let scan: LineScan;
  try {
    scan = await (target.scanning ?? scanLines(target.absPath));
  } catch (error) {
    if (error instanceof ScanRefused) throw new DirectReadRefused(`${target.absPath}: ${error.message}`, true);
    throw error;
  }
  if (scan.blank.length > MAX_BLANK) throw new DirectReadRefused(`${target.absPath}: ${scan.blank.length} blank lines`, true);
  const passedOver = [...scan.malformed].find(([, p]) => PASSED_OVER.test(p.excerpt));
  if (passedOver) throw new DirectReadRefused(`${target.absPath}:${passedOver[0]}: a line of whitespace read_json passes over`, true);
  const dense = densestChunkBytes(scan);
  if (dense > MAX_CHUNK_BYTES) throw new DirectReadRefused(`${target.absPath}: ${dense} bytes within ${DUCKDB_CHUNK_ROWS} lines or so`, true);
  return scan;
}

/** Runs an INSERT over read_json; a failure is a refusal (the file is read again the staged way), except running out of memory. */
async function insert(db: Database, sql: string, params: Params, what: string): Promise<number> {
  try {
    return await db.change(sql, params);
  } catch (error) {
    if (error instanceof InputError) throw error; // out of memory: the staged reader would not fare better
    throw new DirectReadRefused(`${what}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
  }
}

/** The rows with a value for some envelope key: a line that holds none is judged on its own (judgeMissing). */
const withValues = (spec: DirectSpec) => `NOT (${Object.keys(spec.columns).map((k) => `${quoteId(k)} IS NULL`).join(' AND ')})`;

/** The lines read_json should have given a row with values for: all but the blank and malformed ones. */
const expectedRows = (scan: LineScan) => scan.lines - scan.blank.length - scan.malformed.size;

/**
 * The file's ledger, once read_json's rows for it (`inserted`) are in the table: the lines
 * without one (`missing`) are judged.
 */
async function settle(db: Database, spec: DirectSpec, target: DirectTarget, scan: LineScan, inserted: number, missing: number[]): Promise<LineLedger> {
  const problems: Problem[] = [...scan.malformed].map(([line, p]) => ({ line, byteOffset: p.offset, kind: 'malformed', reason: p.reason, excerpt: p.excerpt }));
  if (missing.length !== expectedRows(scan) - inserted) throw new DirectReadRefused(`${target.absPath}: read_json's rows do not line up with the file's lines`);
  for (const line of missing) {
    const problem = await judgeMissing(db, spec, target, scan, line);
    if (problem) problems.push({ line, kind: 'malformed', ...problem });
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

/**
 * Whole files straight into the table, in one statement: a read_json statement costs ~2–3 ms
 * however small its file (20,000 sessions of two lines took ~100 s at one INSERT each; measured).
 * read_json reads a list of files one after the other, on the load's one DuckDB thread, so the
 * rows come in the files' order and each file's in its lines' order: a file's k-th row is its k-th
 * non-blank line. Returns each target's ledger, or undefined for one its line scan refused before
 * anything was read (the caller reads it the staged way).
 */
export async function loadJsonlDirect(db: Database, spec: DirectSpec, targets: DirectTarget[]): Promise<(LineLedger | undefined)[]> {
  const admitted: { target: DirectTarget; scan: LineScan }[] = [];
  for (const target of targets) {
    try {
      admitted.push({ target, scan: await admit(target) });
    } catch (error) {
      if (!(error instanceof DirectReadRefused && error.beforeReading)) throw error;
      if (process.env.TRAJAUDIT_DEBUG) process.stderr.write(`direct read refused: ${error.message}\n`);
    }
  }
  const read = new Map<DirectTarget, LineLedger>();
  if (admitted.length === 0) return targets.map(() => undefined);
  // Per file: the rows of the files before it (a row's ordinal in its file is its ordinal in the
  // statement less those), its rows, the non-blank lines before each blank one (a row's line is
  // its ordinal plus the blank lines before it), and the malformed lines, whose all-NULL rows are
  // left out. A row outside its file's range fails the statement: the files did not give the rows
  // their scans counted (one grew or shrank meanwhile).
  let before = 0;
  const owners = admitted.map(({ target: t, scan }) => {
    const rows = scan.lines - scan.blank.length;
    const blankBefore = scan.blank.map((line, i) => line - (i + 1));
    const owner = `(${sqlString(t.absPath)}, ${t.fileId}, ${t.sessionId === null ? 'NULL' : sqlString(t.sessionId)}, ${before}, ${rows}, [${blankBefore.join(', ')}]::BIGINT[], [${[...scan.malformed.keys()].join(', ')}]::BIGINT[])`;
    before += rows;
    return owner;
  });
  // One file needs no join on its name, its owner row being every row's: a hash join on a path
  // per row cost ~0.25 s of 5.2 s on the 1 GiB home's events.jsonl files (measured).
  const one = admitted.length === 1;
  const list = `[${admitted.map(({ target: t }) => sqlString(literalPath(t.absPath))).join(', ')}]`;
  // Lines are numbered before the rows without values are left out (a window sees only the rows
  // its own WHERE keeps).
  const source = `(SELECT * EXCLUDE (ord, blank_before, malformed) FROM (
      SELECT *, ord + len(list_filter(blank_before, lambda b: b < ord)) AS line_no FROM (
        SELECT o.file_id, o.file_session_id, o.blank_before, o.malformed, r.* EXCLUDE (${one ? '' : 'filename, '}n),
          CASE WHEN r.n - o.before BETWEEN 1 AND o.rows THEN r.n - o.before ELSE error('read_json gave a file more rows than its lines') END AS ord
        FROM (SELECT *, row_number() OVER () AS n FROM ${readJson(spec.columns, list, !one)}) r
        ${one ? 'CROSS JOIN' : 'JOIN'} (VALUES ${owners.join(', ')}) o(path, file_id, file_session_id, before, rows, blank_before, malformed)${one ? '' : ' ON r.filename = o.path'}))
    WHERE ${withValues(spec)} AND NOT list_contains(malformed, line_no))`;
  const what = one ? admitted[0].target.absPath : `${admitted.length} files from ${admitted[0].target.absPath} on`;
  const total = await insert(db, `INSERT INTO ${spec.table} (${spec.into.join(', ')}) ${spec.projection(source)}`, {}, what);
  const inserted = admitted.length === 1
    ? new Map([[admitted[0].target.fileId, total]])
    : new Map((await db.all(`SELECT file_id, count(*) AS n FROM ${spec.table} WHERE file_id IN (${admitted.map(({ target: t }) => t.fileId).join(', ')}) GROUP BY file_id`)).rows.map((r) => [r.file_id as number, r.n as number]));
  const rowsOf = (target: DirectTarget) => inserted.get(target.fileId) ?? 0;
  const grown = admitted.find(({ target, scan }) => rowsOf(target) > expectedRows(scan));
  if (grown) throw new DirectReadRefused(`${grown.target.absPath}: read_json gave more rows than the file has lines (did it grow while being read?)`);
  const short = admitted.filter(({ target, scan }) => rowsOf(target) < expectedRows(scan));
  const missing = short.length > 0 ? await missingLines(db, spec, short) : new Map<DirectTarget, number[]>();
  for (const { target, scan } of admitted) read.set(target, await settle(db, spec, target, scan, rowsOf(target), missing.get(target) ?? []));
  return targets.map((target) => read.get(target));
}
