// The test-pollution patterns (tasks.testPatterns, --param test_pattern) run in DuckDB's
// regexp_full_match, whose dialect is RE2: only RE2 can say which of them it takes, so they are
// compiled by it, one by one, before any input is read. One by one, because the config's
// patterns are joined into one alternation, which can hide an unbalanced parenthesis.
import { configKeyPlace, configNote, type LoadConfigOptions, type TrajauditConfig } from '../config/load-config.js';
import type { Database, Params } from '../db/database.js';
import { InputError, UsageError } from '../errors.js';

export interface PatternToCheck {
  pattern: string;
  /** Where it was given: a config file and key, or a --param. */
  origin: { place: string; key: string; note: string } | { param: string };
}

const RE2_HINT = 'test patterns run in DuckDB as RE2, which has no backreferences such as \\1 and no lookahead or lookbehind, and takes flags as (?i); rewrite it in RE2 syntax';

/** What RE2 says is wrong with `pattern`, or null when it compiles. */
async function re2Problem(db: Database, pattern: string): Promise<string | null> {
  try {
    await db.all(`SELECT regexp_full_match('', $pattern) AS ok`, { pattern });
    return null;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    const invalid = /^Invalid Input Error: (.*)$/.exec(message);
    if (invalid) return invalid[1];
    throw error;
  }
}

export async function checkPatterns(db: Database, patterns: PatternToCheck[]): Promise<void> {
  for (const { pattern, origin } of patterns) {
    const problem = await re2Problem(db, pattern);
    if (problem === null) continue;
    if ('place' in origin) {
      throw new InputError(`${origin.place}: invalid value at "${origin.key}": not a valid RE2 regular expression (${problem}); ${RE2_HINT}${origin.note}`);
    }
    throw new UsageError(`${origin.param}: not a valid RE2 regular expression (${problem}); ${RE2_HINT}`);
  }
}

/** The config's patterns, each under its key. */
export function configPatterns(config: TrajauditConfig, where: LoadConfigOptions): PatternToCheck[] {
  return config.tasks.testPatterns.map((pattern, i) => ({
    pattern,
    // The place is looked up only when a pattern is refused, the rare case.
    origin: {
      get place() {
        return configKeyPlace(where, ['tasks', 'testPatterns', i]);
      },
      key: `tasks.testPatterns[${i}]`,
      note: configNote(where),
    },
  }));
}

/**
 * The patterns a `query` run takes, from its values bound without the config: a --param
 * test_pattern (given once: bindParams refuses a second; a NULL one has none) replaces the config's.
 */
export function queryPatterns(bound: Params, params: string[], config: TrajauditConfig, where: LoadConfigOptions): PatternToCheck[] {
  if (!('test_pattern' in bound)) return [];
  const given = params.filter((p) => p.startsWith('test_pattern=')).at(-1);
  if (given === undefined) return configPatterns(config, where);
  const value = bound.test_pattern;
  return typeof value === 'string' ? [{ pattern: value, origin: { param: `--param ${given}` } }] : [];
}
