// Turns --param/--since/--until/--session and config into bound values: typed, validated,
// never spliced into SQL text.
import { didYouMean } from '../did-you-mean.js';
import { UsageError } from '../errors.js';
import type { Params } from '../db/database.js';
import { parseInstant } from '../time/parse-time.js';
import type { CannedQuery, ParamType, QueryParam } from './load-queries.js';

function parseValue(param: QueryParam, text: string, origin: string): string | number | boolean | null {
  if (text === 'NULL' || text === 'null') return null;
  const bad = (what: string) => new UsageError(`${origin}: ${param.name} takes ${what}, got ${JSON.stringify(text)}`);
  const types: Record<ParamType, () => string | number | boolean> = {
    TIMESTAMP: () => parseInstant(text, origin).iso,
    VARCHAR: () => (/^'.*'$/s.test(text) ? text.slice(1, -1).replace(/''/g, "'") : text),
    BIGINT: () => {
      // Beyond 2^53 a JavaScript number would round the value (and past int64 DuckDB refuses it).
      if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw bad(`a whole number from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`);
      return Number(text);
    },
    DOUBLE: () => {
      if (!Number.isFinite(Number(text)) || text.trim() === '') throw bad('a number');
      return Number(text);
    },
    BOOLEAN: () => {
      if (!/^(true|false)$/i.test(text)) throw bad('true or false');
      return text.toLowerCase() === 'true';
    },
  };
  return types[param.type]();
}

export interface BindInput {
  params: string[];
  since?: string;
  until?: string;
  /** Already resolved to a full session id. */
  session?: string;
  /** Values from trajaudit.config.json for params a query declares (e.g. test_pattern). */
  fromConfig?: Record<string, string>;
}

export function bindParams(query: CannedQuery, input: BindInput): Params {
  const declared = new Map(query.params.map((p) => [p.name, p]));
  const bound: Params = {};
  for (const p of query.params) bound[p.name] = parseValue(p, p.defaultText, `default of ${query.name}`);
  for (const [name, value] of Object.entries(input.fromConfig ?? {})) {
    if (declared.has(name)) bound[name] = value;
  }
  const set = (name: string, text: string, origin: string) => {
    const param = declared.get(name);
    if (!param) {
      const names = query.params.map((p) => p.name).join(', ') || 'none';
      throw new UsageError(`${origin}: query ${query.name} has no parameter ${name} (${didYouMean(name, declared.keys())}its parameters: ${names})`);
    }
    bound[name] = parseValue(param, text, origin);
  };
  // A key given twice is refused, as --since with --param since is: taking the last one would
  // silently drop a value the user wrote.
  const given = new Map<string, string>();
  for (const assignment of input.params) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`--param ${JSON.stringify(assignment)} is not key=value`);
    const earlier = given.get(assignment.slice(0, eq));
    if (earlier !== undefined) throw new UsageError(`--param ${assignment.slice(0, eq)} is given twice (--param ${earlier}, --param ${assignment}); give it once`);
    given.set(assignment.slice(0, eq), assignment);
    set(assignment.slice(0, eq), assignment.slice(eq + 1), `--param ${assignment}`);
  }
  if (input.since !== undefined) set('since', input.since, '--since');
  if (input.until !== undefined) set('until', input.until, '--until');
  if (input.session !== undefined) {
    if (!declared.has('session')) throw new UsageError(`--session: query ${query.name} cannot be filtered by session`);
    bound.session = input.session;
  }
  return bound;
}
