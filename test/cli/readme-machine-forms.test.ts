import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO, runCli, runJson, tempDir } from '../helpers/run-cli.js';

// Scripts read the machine forms (json, csv) by their keys: the reference pages in docs/ name every
// key each command prints, and these tests hold the two together, so that a key added, renamed or
// dropped in the code without the docs (or the other way round) fails here.
const HOME = path.join(FIXTURES, 'home');

/** docs/<name>.md */
function doc(name: string): string {
  return fs.readFileSync(path.join(REPO, 'docs', `${name}.md`), 'utf8');
}

/** The part of a page under a `## heading`, up to the next `## ` heading. */
function section(page: string, heading: string): string {
  const text = doc(page);
  const at = text.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`docs/${page}.md has no "## ${heading}" section`);
  const end = text.indexOf('\n## ', at + 1);
  return text.slice(at, end < 0 ? undefined : end);
}

/** The first column of the first Markdown table after `anchor` in docs/<page>.md, each name in backticks (a cell may name two). */
function documentedKeys(page: string, anchor: string): string[] {
  const text = doc(page);
  const at = text.indexOf(anchor);
  if (at < 0) throw new Error(`docs/${page}.md no longer says "${anchor}"`);
  const start = text.indexOf('\n|', at) + 1;
  const rows = text.slice(start).split('\n');
  const end = rows.findIndex((line) => !line.startsWith('|'));
  return rows.slice(2, end).flatMap((line) => [...line.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
}

const scratch = tempDir('trajaudit-readme-');
const DB = path.join(scratch.dir, 'home.duckdb');
beforeAll(async () => {
  const load = await runCli(['load', HOME, '--db', DB, '--quiet']);
  if (load.code !== 0) throw new Error(load.stderr);
});
afterAll(() => scratch.cleanup());

describe('docs/ documents every key of the machine forms', () => {
  it('load: its one row', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['load', HOME, '--db', DB, '--quiet']);
    expect(value).toHaveLength(1);
    expect(documentedKeys('inputs', '`load` prints one row')).toEqual(Object.keys(value[0]));
  });

  it('timeline --format json: its row keys, in order', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['timeline', '4f7a9c2e', '--db', DB]);
    expect(documentedKeys('timeline', 'array of objects with these keys, each always present')).toEqual(Object.keys(value[0]));
  });

  it('queries --format json: name, description and params first, params one "; "-joined string; queries NAME the same object', async () => {
    const { value } = await runJson<Record<string, unknown>[]>(['queries']);
    const herd = value.find((q) => q.name === 'cooldown-herd')!;
    expect(Object.keys(herd).slice(0, 3)).toEqual(['name', 'description', 'params']);
    expect(documentedKeys('queries', 'every field in full, one row per query')).toEqual(Object.keys(herd));
    const listing = section('queries', 'Listing the queries').replace(/\s+/g, ' ');
    expect(listing).toContain('Its columns are `name`, `description` and `params`, then `columns`, `sql` and `docs`; `params` is one string in every format');
    expect(herd.params).toBe('since TIMESTAMP = NULL; until TIMESTAMP = NULL; session VARCHAR = NULL; window_ms BIGINT = 250; min_agents BIGINT = 1');
    expect((await runJson<Record<string, unknown>>(['queries', 'cooldown-herd'])).value).toEqual(herd);
  });

  it('leak-check --format json: the example document has the keys of a real one', async () => {
    const example = /that stdout holds only the JSON document:\n\n```json\n([\s\S]*?)\n```/.exec(section('leak-check', 'The JSON document'));
    expect(example).not.toBeNull();
    const documented = JSON.parse(example![1]) as Record<string, unknown>;
    const { dir, cleanup } = tempDir('trajaudit-readme-leak-');
    try {
      const watched = path.join(dir, 'tasks');
      fs.mkdirSync(watched);
      const run = await runCli(['leak-check', '--watch', watched, '--format', 'json', '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(path.join(watched, 'x'))}, 'x')`]);
      expect(run.code).toBe(1);
      const real = JSON.parse(run.stdout) as Record<string, unknown>;
      const shape = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.length > 0 ? [shape(value[0])] : [];
        if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
        return null;
      };
      const top = (doc: Record<string, unknown>) => ({ ...doc, watched: (doc.watched as Record<string, unknown>[]).map((w) => Object.keys(w)) });
      expect(shape(top(documented))).toEqual(shape(top(real)));
      expect(shape((documented.watched as Record<string, unknown>[])[0].before)).toEqual(shape((real.watched as Record<string, unknown>[])[0].before));
      expect(shape((documented.watched as Record<string, unknown>[])[0].added)).toEqual(shape((real.watched as Record<string, unknown>[])[0].added));
      // The two key tables below the example name every key, in the document's order.
      expect(documentedKeys('leak-check', 'so that stdout holds only the JSON document:')).toEqual(Object.keys(real));
      expect(documentedKeys('leak-check', 'Per watched dir:')).toEqual(Object.keys((real.watched as Record<string, unknown>[])[0]));
    } finally {
      cleanup();
    }
  });

  it('docs/tables.md names every table and view a --db holds, trajaudit_meta included', async () => {
    const { value } = await runJson<{ name: string }[]>(['sql', 'SHOW TABLES', '--db', DB]);
    const tables = ['Tables and views', 'Cross-agent tables', 'Claude Code tables'].map((heading) => section('tables', heading)).join('\n');
    const documented = [...tables.matchAll(/^\| `(\w+)`/gm)].map((m) => m[1]);
    expect([...new Set(value.map((t) => t.name))].sort()).toEqual([...documented].sort());
  });
});
