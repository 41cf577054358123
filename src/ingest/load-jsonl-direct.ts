// The direct path for whole JSONL files: DuckDB's read_json parses each line once, straight into
// the table, while Node (scan-lines.ts) counts the lines and judges the few that DuckDB's lenient
// reader cannot be trusted on. read_json gives one row per non-blank line, in order, and an
// all-NULL row for a line it cannot parse; so a file's k-th row is its k-th non-blank line, and
// only the all-NULL rows need a second look. Anything that breaks that correspondence refuses the
// files (refused.ts), and the caller reads them again, one at a time, and then the staged way
// (stage-jsonl.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Database, Params } from '../db/database.js';
import { literalPath } from '../db/literal-path.js';
import { InputError } from '../errors.js';
import { makeTempDir, removeTempDir } from '../temp-dirs.js';
import type { LineLedger, Problem } from './line-ledger.js';
import { excerpt } from './strict-json.js';
import { Refused } from './refused.js';
import { densestChunkBytes, DUCKDB_CHUNK_ROWS, judgeLine, type LineScan, lineBytes, scanLines } from './scan-lines.js';

/** Refused once read_json's statement has run: the caller's transaction holds its rows. */
const afterReading = (reason: string) => new Refused('after-reading', reason);

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
  scanning?: Promise<LineScan | Refused>;
}

const CANNOT_STORE = 'valid JSON that DuckDB cannot store (lone surrogate escape?)';
/**
 * read_json's maximum_object_size, which sizes its buffers (twice this, from DuckDB's pool; its
 * 16 MiB default left too little of the pool for the insert). It is no limit on a line: read_json
 * still reads longer ones, up to line-rules.ts' MAX_LINE_BYTES, beyond which the scan refuses.
 */
const READ_JSON_OBJECT_BYTES = 2 * 1024 * 1024;
/**
 * Each row's line number is its ordinal plus the blank lines before it, counted in a list of
 * them: cheap for a few; a file with more blank lines than this is read the staged way.
 */
const MAX_BLANK = 64;

/**
 * read_json and the insert parse a chunk of rows at a time, taking up to eight times its bytes
 * from the buffer pool (line-rules.ts, BIG_LINE_BYTES): a file whose lines are denser than this
 * somewhere is read the staged way, which parses long lines alone.
 */
const MAX_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * A malformed line can leave read_json out of step with the lines (a cut line read together with
 * the next one, two objects run together, a line of form feeds it passes over): the file is read
 * from a copy with each malformed line overwritten by `{}` and spaces, one all-NULL row in its
 * place, so that the file's other lines still load the direct way (the scan has listed the
 * malformed ones). Null when the file has none or the copy cannot be made (the file is read as it
 * is); a refusal when one is too short to overwrite.
 */
function withoutMalformed(target: DirectTarget, scan: LineScan, dir: () => string): string | null | Refused {
  if (scan.malformed.size === 0) return null;
  const copy = path.join(dir(), `${target.fileId}.jsonl`);
  try {
    fs.copyFileSync(target.absPath, copy);
  } catch {
    // No room for the copy (a full disk, a file-size limit): the file itself, as before copies.
    fs.rmSync(copy, { force: true });
    return null;
  }
  const fd = fs.openSync(copy, 'r+');
  try {
    for (const [line, { offset }] of scan.malformed) {
      const length = lineLength(fd, offset);
      if (length < 2) return new Refused('before-reading', `${target.absPath}:${line}: a malformed line of ${length} byte`);
      fs.writeSync(fd, Buffer.from(`{}${' '.repeat(length - 2)}`), 0, length, offset);
    }
  } finally {
    fs.closeSync(fd);
  }
  return copy;
}

/** The length of the line starting at `offset` (up to its newline or the end of the file). */
function lineLength(fd: number, offset: number): number {
  const window = Buffer.allocUnsafe(64 * 1024);
  for (let at = offset; ; at += window.length) {
    const n = fs.readSync(fd, window, 0, window.length, at);
    const nl = window.subarray(0, n).indexOf(10);
    if (nl !== -1) return at - offset + nl;
    if (n < window.length) return at - offset + n;
  }
}

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`;
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** read_json over a list of files; with `filename`, each row holds its file's path there. */
function readJson(columns: Record<string, string>, files: string, filename: boolean): string {
  const spec = Object.entries(columns).map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`).join(', ');
  return `read_json(${files}, format='newline_delimited', ignore_errors=true, maximum_object_size=${READ_JSON_OBJECT_BYTES}, filename=${filename}, columns={${spec}})`;
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
    throw afterReading(`${target.absPath}:${line}: read_json's rows do not line up with the file's lines`);
  }
  const nulls = Object.entries(spec.columns).map(([name, type]) => `NULL::${type} AS ${quoteId(name)}`).join(', ');
  await db.run(`INSERT INTO ${spec.table} (${spec.into.join(', ')}) ${spec.projection(`(SELECT $file_id AS file_id, $session_id AS file_session_id, ${line}::BIGINT AS line_no, ${nulls})`)}`, { file_id: target.fileId, session_id: target.sessionId });
  return null;
}

/** A file the direct path reads: its line scan, and the file read_json reads (itself, or a copy without its malformed lines). */
interface Admitted {
  target: DirectTarget;
  scan: LineScan;
  readPath: string;
}

/** The file's line scan and what read_json reads, or why read_json cannot be trusted with it (before anything is read). */
async function admit(spec: DirectSpec, target: DirectTarget, copies: () => string): Promise<Admitted | Refused> {
  const scan = await (target.scanning ?? scanLines(target.absPath, { keys: Object.keys(spec.columns) }));
  const refuse = (reason: string) => new Refused('before-reading', `${target.absPath}${reason}`);
  if (scan instanceof Refused) return refuse(`: ${scan.message}`);
  if (scan.blank.length > MAX_BLANK) return refuse(`: ${scan.blank.length} blank lines`);
  const dense = densestChunkBytes(scan);
  if (dense > MAX_CHUNK_BYTES) return refuse(`: ${dense} bytes within ${DUCKDB_CHUNK_ROWS} lines or so`);
  const copy = withoutMalformed(target, scan, copies);
  if (copy instanceof Refused) return copy;
  return { target, scan, readPath: copy ?? target.absPath };
}

/** Runs an INSERT over read_json; a failure is a refusal (the file is read again the staged way), except running out of memory. */
async function insert(db: Database, sql: string, params: Params, what: string): Promise<number> {
  try {
    return await db.change(sql, params);
  } catch (error) {
    if (error instanceof InputError) throw error; // out of memory: the staged reader would not fare better
    throw afterReading(`${what}: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
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
  if (missing.length !== expectedRows(scan) - inserted) throw afterReading(`${target.absPath}: read_json's rows do not line up with the file's lines`);
  for (const line of missing) {
    const problem = await judgeMissing(db, spec, target, scan, line);
    if (problem) problems.push({ line, kind: 'malformed', ...problem });
  }
  problems.sort((a, b) => a.line - b.line);
  const lastLine = problems.at(-1);
  if (!scan.terminated && lastLine?.line === scan.lines) lastLine.kind = 'truncated-tail';
  const malformed = problems.length;
  for (const [line, p] of scan.duplicates) problems.push({ line, byteOffset: p.offset, kind: 'duplicate-key', reason: p.reason, excerpt: p.excerpt });
  problems.sort((a, b) => a.line - b.line);
  return {
    lines: scan.lines,
    valid: scan.lines - scan.blank.length - malformed,
    blank: scan.blank.length,
    malformed,
    bytes: scan.bytes,
    completeBytes: scan.terminated ? scan.bytes : scan.lastLineStart,
    completeLines: scan.terminated ? scan.lines : scan.lines - 1,
    problems,
  };
}

/**
 * Whole files straight into the table, in one statement: a read_json statement costs a few ms
 * however small its file, so a home of many small sessions is read a batch of files at a time.
 * read_json reads a list of files one after the other, on the load's one DuckDB thread, so the
 * rows come in the files' order and each file's in its lines' order: a file's k-th row is its k-th
 * non-blank line. Each target's answer is its ledger or a refusal (refused.ts): before reading,
 * that file's own; after the statement ran, every file's, the caller's transaction holding their rows.
 */
export async function loadJsonlDirect(db: Database, spec: DirectSpec, targets: DirectTarget[]): Promise<(LineLedger | Refused)[]> {
  let copies: string | null = null;
  try {
    return await loadAdmitted(db, spec, targets, () => (copies ??= makeTempDir('trajaudit-malformed-')));
  } finally {
    if (copies !== null) removeTempDir(copies);
  }
}

async function loadAdmitted(db: Database, spec: DirectSpec, targets: DirectTarget[], copies: () => string): Promise<(LineLedger | Refused)[]> {
  const admitted: Admitted[] = [];
  const answers = new Map<DirectTarget, LineLedger | Refused>();
  for (const target of targets) {
    const file = await admit(spec, target, copies);
    if (file instanceof Refused) answers.set(target, file);
    else admitted.push(file);
  }
  if (admitted.length > 0) {
    try {
      for (const [target, ledger] of await readAdmitted(db, spec, admitted)) answers.set(target, ledger);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      for (const { target } of admitted) answers.set(target, error);
    }
  }
  return targets.map((target) => answers.get(target)!);
}

async function readAdmitted(db: Database, spec: DirectSpec, admitted: Admitted[]): Promise<Map<DirectTarget, LineLedger>> {
  const read = new Map<DirectTarget, LineLedger>();
  // Per file: the rows of the files before it (a row's ordinal in its file is its ordinal in the
  // statement less those), its rows, the non-blank lines before each blank one (a row's line is
  // its ordinal plus the blank lines before it), and the malformed lines, whose all-NULL rows are
  // left out. A row outside its file's range fails the statement: the files did not give the rows
  // their scans counted (one grew or shrank meanwhile).
  let before = 0;
  const owners = admitted.map(({ target: t, scan, readPath }) => {
    const rows = scan.lines - scan.blank.length;
    const blankBefore = scan.blank.map((line, i) => line - (i + 1));
    const owner = `(${sqlString(readPath)}, ${t.fileId}, ${t.sessionId === null ? 'NULL' : sqlString(t.sessionId)}, ${before}, ${rows}, [${blankBefore.join(', ')}]::BIGINT[], [${[...scan.malformed.keys()].join(', ')}]::BIGINT[])`;
    before += rows;
    return owner;
  });
  // One file needs no join on its name, its owner row being every row's: a hash join on a path
  // per row is a measurable share of a large file's load.
  const one = admitted.length === 1;
  const list = `[${admitted.map(({ readPath }) => sqlString(literalPath(readPath))).join(', ')}]`;
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
  if (grown) throw afterReading(`${grown.target.absPath}: read_json gave more rows than the file has lines (did it grow while being read?)`);
  const short = admitted.filter(({ target, scan }) => rowsOf(target) < expectedRows(scan));
  const missing = short.length > 0 ? await missingLines(db, spec, short) : new Map<DirectTarget, number[]>();
  for (const { target, scan } of admitted) read.set(target, await settle(db, spec, target, scan, rowsOf(target), missing.get(target) ?? []));
  return read;
}
