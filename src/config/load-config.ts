import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import { DEFAULT_CONFIG } from './defaults.js';
import { jsonProblem } from './json-problem.js';
import type { TrajauditConfig } from './schema.js';

export type { TrajauditConfig } from './schema.js';
export const defaultConfigName = 'trajaudit.config.json';

export interface LoadConfigOptions {
  root: string;
  configPath?: string;
}

/** The config file these options name (whether or not it exists), for messages about its values. */
export function configFile(options: LoadConfigOptions): string {
  return options.configPath ? path.resolve(options.configPath) : path.resolve(options.root, defaultConfigName);
}

/** read → parse (zod strict) → defaults. A missing default file means defaults; a missing --config is an error. */
export async function loadConfig(options: LoadConfigOptions): Promise<TrajauditConfig> {
  const file = configFile(options);
  const text = await readText(file, Boolean(options.configPath));
  if (text === undefined) return structuredClone(DEFAULT_CONFIG);
  const { configSchema } = await import('./schema.js');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const problem = jsonProblem(text, error as Error);
    const where = `${file}:${problem.line}:${problem.column}`;
    throw new InputError(
      problem.conflict
        ? `${where}: config has unresolved merge conflicts; resolve them`
        : `${where}: not valid JSON (${problem.reason}); fix the file or pass another with --config`,
    );
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(`${file}: ${describeIssue(parsed.error.issues[0])}`);
  return parsed.data;
}

async function readText(file: string, explicit: boolean): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !explicit) return undefined;
    if (code === 'ENOENT') throw new InputError(`config file not found: ${file}; check the --config path`);
    throw new InputError(`cannot read config ${file}: ${(error as Error).message}`);
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = (keys: PropertyKey[]) => keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('').replace(/^\./, '');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => at([...issue.path, k]));
    return `unknown key ${keys.map((k) => `"${k}"`).join(', ')}; remove it or check the spelling (see trajaudit.schema.json)`;
  }
  const where = issue.path.length ? `"${at(issue.path)}"` : 'top level';
  return `invalid value at ${where}: ${issue.message}`;
}
