// Canned queries: top-level queries/<name>.sql, each documenting itself in header comments:
//   -- name: retry-telemetry
//   -- description: …            (what one row is, the order; may go on over further `-- ` lines;
//                                 its first sentence is what `trajaudit queries` lists)
//   -- columns: type, events, …  (the result columns, in order, as the final SELECT names them)
//   -- param: since TIMESTAMP = NULL
// The header is the contract only; docs/queries.md explains each query's columns and rules.
// The loader rejects a file whose name differs from its header, one without a description or a
// columns line, and any parameter that is declared but not used or used but not declared ("unbound").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { didYouMean } from '../did-you-mean.js';
import { InternalError, UsageError } from '../errors.js';

export type ParamType = 'TIMESTAMP' | 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN';
const PARAM_TYPES: ParamType[] = ['TIMESTAMP', 'VARCHAR', 'BIGINT', 'DOUBLE', 'BOOLEAN'];

export interface QueryParam {
  name: string;
  type: ParamType;
  /** Default as written in the header (NULL, a number, true/false or a 'quoted string'). */
  defaultText: string;
}

export interface CannedQuery {
  name: string;
  description: string;
  /** The result columns, in order, from the `-- columns:` line. */
  columns: string[];
  /** What the answer needs recorded (`-- signals:`, signal_coverage's names). */
  signals: string[];
  /** The sources it reads (`-- sources:`); none: every source. */
  sources: string[] | null;
  params: QueryParam[];
  sql: string;
  file: string;
}

export const QUERIES_DIR = fileURLToPath(new URL('../../queries/', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** The query's SQL file relative to the package (`queries/retry-by-agent.sql`), with / between parts. */
export function packagePath(query: CannedQuery): string {
  return path.relative(PACKAGE_DIR, query.file).split(path.sep).join('/');
}

export function parseQuery(file: string, text: string): CannedQuery {
  const where = path.basename(file);
  const fail = (why: string) => new InternalError(`canned query ${where}: ${why}`);
  const header = text.split('\n').filter((l) => l.startsWith('--')).map((l) => l.replace(/^--\s?/, ''));
  let name: string | undefined;
  const description: string[] = [];
  let columns: string[] | undefined;
  let signals: string[] = [];
  let sources: string[] | null = null;
  const params: QueryParam[] = [];
  let inDescription = false;
  for (const line of header) {
    const field = /^(name|description|columns|param|signals|sources):\s*(.*)$/.exec(line);
    const list = () => field![2].split(',').map((c) => c.trim()).filter((c) => c !== '');
    if (field?.[1] === 'signals') signals = list();
    if (field?.[1] === 'sources') sources = list();
    if (field?.[1] === 'name') name = field[2].trim();
    if (field?.[1] === 'description') description.push(field[2].trim());
    if (field?.[1] === 'columns') columns = list();
    if (field?.[1] === 'param') {
      const m = /^([a-z_][a-z0-9_]*)\s+([A-Z]+)\s*=\s*(.+)$/.exec(field[2].trim());
      if (!m) throw fail(`bad param line "${line}" (expected "-- param: NAME TYPE = default")`);
      if (!PARAM_TYPES.includes(m[2] as ParamType)) throw fail(`param ${m[1]} has type ${m[2]}; use one of ${PARAM_TYPES.join(', ')}`);
      params.push({ name: m[1], type: m[2] as ParamType, defaultText: m[3].trim() });
    }
    if (field) inDescription = field[1] === 'description';
    else if (inDescription && line.trim() !== '') description.push(line.trim());
  }
  const expected = path.basename(file, '.sql');
  if (name !== expected) throw fail(`header "-- name: ${name ?? ''}" must equal the file name "${expected}"`);
  if (description.length === 0) throw fail('missing "-- description:"');
  if (columns === undefined || columns.length === 0) throw fail('missing "-- columns:"');
  const body = text.split('\n').filter((l) => !l.trimStart().startsWith('--')).join('\n');
  const used = new Set([...body.matchAll(/\$([a-z_][a-z0-9_]*)/g)].map((m) => m[1]));
  for (const p of params) if (!used.has(p.name)) throw fail(`param ${p.name} is declared but never used`);
  for (const u of used) if (!params.some((p) => p.name === u)) throw fail(`$${u} is used but not declared with "-- param:"`);
  return { name, description: description.join(' '), columns, signals, sources, params, sql: text, file };
}

export function loadQueries(dir: string = QUERIES_DIR): CannedQuery[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => parseQuery(path.join(dir, f), fs.readFileSync(path.join(dir, f), 'utf8')));
}

/** The canned query of that name; an unknown name is a usage error with a "did you mean" and the list. */
export function findQuery(name: string): CannedQuery {
  const all = loadQueries();
  const query = all.find((q) => q.name === name);
  if (!query) throw new UsageError(`unknown query ${JSON.stringify(name)}; ${didYouMean(name, all.map((q) => q.name))}the canned queries are: ${all.map((q) => q.name).join(', ')}`);
  return query;
}
