import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { MAX_FILE_BYTES, readCappedText, TooLargeError } from '../read-capped-text.js';
import { DEFAULT_CONFIG } from './defaults.js';
import { describeIssue, issueLine } from './describe-issue.js';
import { jsonLine } from './json-line.js';
import { jsonProblem } from './json-problem.js';
import type { TrajauditConfig } from './schema.js';

export type { TrajauditConfig } from './schema.js';
export const defaultConfigName = 'trajaudit.config.json';

export interface LoadConfigOptions {
  root: string;
  configPath?: string;
  /**
   * Set by a command that reads the default file from the current directory (query, report):
   * its name, so that a message about that file says why it was read at all.
   */
  readFromCwdBy?: string;
}

/** What a message about the config file adds when the command found it by itself, not through --config. */
export function configNote(options: LoadConfigOptions): string {
  if (options.configPath || !options.readFromCwdBy) return '';
  return ` (${options.readFromCwdBy} read this file because it is in the current directory; fix it, or pass --config F to use another file)`;
}

/** `file:line` of a key path in the config file, or the file alone when it cannot be read now. */
export function configKeyPlace(options: LoadConfigOptions, keys: readonly PropertyKey[]): string {
  const file = configFile(options);
  try {
    return `${file}:${jsonLine(readFileSync(file, 'utf8'), keys)}`;
  } catch {
    return file;
  }
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
        ? `${where}: config has unresolved merge conflicts; resolve them${configNote(options)}`
        : `${where}: not valid JSON (${problem.reason}); fix the file or pass another with --config${configNote(options)}`,
    );
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`${file}:${issueLine(text, issue)}: ${describeIssue(issue, 'see trajaudit.schema.json')}${configNote(options)}`);
  }
  return parsed.data;
}

async function readText(file: string, explicit: boolean): Promise<string | undefined> {
  try {
    return await readCappedText(file, MAX_FILE_BYTES);
  } catch (error) {
    if (error instanceof TooLargeError) throw new InputError(`config ${file} holds ${error.message}, which no config does (a device such as /dev/zero?); pass a JSON config file`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !explicit) return undefined;
    if (code === 'ENOENT') throw new InputError(`config file not found: ${file}; check the --config path`);
    throw new InputError(`cannot read config ${file}: ${(error as Error).message}`);
  }
}

