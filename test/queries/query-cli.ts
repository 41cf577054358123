// Shared by the canned-query tests: run `trajaudit query NAME … --format json` on a fixture through
// the built CLI and return the parsed rows together with the raw run.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { FIXTURES, fixtureDb, runJson, tempDir } from '../helpers/run-cli.js';

export const HOME = path.join(FIXTURES, 'home');

/** The bundled home as a --db (loaded once per worker): for queries over it that test the query, not the load. */
export const homeDb = () => fixtureDb('home');

/** What the ingest says on stderr about the bundled home's 6 malformed JSONL lines + 1 warn.log orphan. */

export type Row = Record<string, unknown>;

export async function queryRows(name: string, args: string[], options: Parameters<typeof runJson>[1] = {}): Promise<{ rows: Row[]; stderr: string }> {
  const { value, run } = await runJson<Row[]>(['query', name, ...args], options);
  expect(run.code, run.stderr).toBe(0);
  expect(Array.isArray(value)).toBe(true);
  return { rows: value, stderr: run.stderr };
}

/** Copies some files of a fixture tasks/ dir into a fresh temp tasks/ dir with the given mtimes (git keeps none). */
export function tasksDir(sourceDir: string, mtimes: Record<string, string>): { dir: string; cleanup: () => void } {
  const temp = tempDir('trajaudit-tasks-');
  const tasks = path.join(temp.dir, 'tasks');
  fs.mkdirSync(tasks);
  for (const [name, iso] of Object.entries(mtimes)) {
    const target = path.join(tasks, name);
    fs.copyFileSync(path.join(sourceDir, name), target);
    const when = new Date(iso);
    fs.utimesSync(target, when, when);
  }
  return { dir: temp.dir, cleanup: temp.cleanup };
}
