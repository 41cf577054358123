import path from 'node:path';
import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixtureDb, runCli, runJson, tempDir } from '../helpers/run-cli.js';

// Issue #26: at COLUMNS=80 every table command fits 80 columns, unless it prints one record per
// block (psql's expanded mode, where an id longer than the room may stick out), and never splits an
// identifier, a path, file:line or a time across lines.
const WIDTH = 80;
const HOME = path.join(FIXTURES, 'home');
const work = tempDir();
afterAll(work.cleanup);

type Row = Record<string, unknown>;

/** The lines of the output that are not in an expanded block (from `-[ RECORD` to its `(N rows)`). */
function linesOutsideExpanded(stdout: string): string[] {
  const outside: string[] = [];
  let expanded = false;
  for (const line of stdout.split('\n')) {
    if (line.startsWith('-[ RECORD ')) expanded = true;
    else if (expanded && /^\(\d+ rows?\)$/.test(line)) expanded = false;
    if (!expanded) outside.push(line);
  }
  return outside;
}

/** Column names whose values are identifiers, paths or times: each must show whole on one line. */
const ID_COLUMN = /(^|_)(id|ids|ts|path|where|session)$|^(agent|event|file:line)$/;

/** The identifier values of `rows` (a `, ` list counted as its items), as the table shows them. */
function identifiers(rows: Row[]): string[] {
  const values = rows.flatMap((row) => Object.entries(row).filter(([column, value]) => ID_COLUMN.test(column) && typeof value === 'string' && value !== ''));
  return [...new Set(values.flatMap(([, value]) => (value as string).split(', ')))];
}

function expectFits(stdout: string, ids: string[], what: string): void {
  expect(stdout, what).not.toBe('');
  for (const line of linesOutsideExpanded(stdout)) expect(stringWidth(line), `${what}: ${line}`).toBeLessThanOrEqual(WIDTH);
  const lines = stdout.split('\n');
  for (const id of ids) expect(lines.some((line) => line.includes(id)), `${what}: ${id} split or missing`).toBe(true);
}

const narrow = (args: string[]) => runCli(args, { env: { COLUMNS: String(WIDTH) } });

describe(`every table command at COLUMNS=${WIDTH}`, async () => {
  const db = await fixtureDb('home');
  const { value: queries } = await runJson<{ name: string }[]>(['queries']);

  it.each(queries.map((q) => q.name))('query %s', async (name) => {
    const json = (await runJson<Row[]>(['query', name, ...db])).value;
    const run = await narrow(['query', name, ...db]);
    expect(run.code, run.stderr).toBe(0);
    expectFits(run.stdout, identifiers(json), name);
  });

  it('sql: a wide select of events, and one of text, ids and NULLs', async () => {
    for (const statement of ['SELECT * FROM events ORDER BY session_id, line LIMIT 40', `SELECT session_id, 'a message of several words' AS message, NULL AS nothing, '' AS empty FROM sessions`]) {
      const json = (await runJson<Row[]>(['sql', statement, ...db])).value;
      const run = await narrow(['sql', statement, ...db]);
      expect(run.code, run.stderr).toBe(0);
      expectFits(run.stdout, identifiers(json), statement);
    }
  });

  it('sources, whole and by section', async () => {
    const json = (await runJson<Record<string, Row[]>>(['sources', ...db])).value;
    const ids = identifiers([...json.files, ...json.problems, ...json.skipped]).filter((id) => !id.startsWith('tasks/'));
    expectFits((await narrow(['sources', ...db])).stdout, ids, 'sources');
    for (const section of ['files', 'problems', 'skipped', 'totals']) expectFits((await narrow(['sources', ...db, '--section', section])).stdout, [], section);
  });

  it('timeline of each session, and of one subagent', async () => {
    const sessions = (await runJson<{ session_id: string }[]>(['sql', 'SELECT DISTINCT session_id FROM events ORDER BY 1', ...db])).value.map((r) => r.session_id);
    expect(sessions.length).toBeGreaterThan(3);
    for (const args of [...sessions.map((s) => [s]), ['4f7a9c2e', '--agent', 'a8q1w5n0c']]) {
      const json = (await runJson<{ ts: string | null; file: string; line: number; agent: string | null; event: string }[]>(['timeline', ...args, ...db])).value;
      // The table shows file:line after the dir they share, and times after the date they share.
      const ids = json.flatMap((r) => [`${path.posix.basename(r.file)}:${r.line}`, r.event, r.agent ?? '', r.ts?.slice(11) ?? ''].filter((id) => id !== ''));
      const run = await narrow(['timeline', ...args, ...db]);
      expect(run.code, run.stderr).toBe(0);
      expectFits(run.stdout, ids, `timeline ${args.join(' ')}`);
    }
  });

  it('Claude Code: the cross-agent queries and the timeline of each session', async () => {
    const claude = await fixtureDb('claude-home');
    for (const name of ['api-errors', 'agent-outcomes', 'tool-errors']) {
      const json = (await runJson<Row[]>(['query', name, ...claude])).value;
      expect(json.length, name).toBeGreaterThan(0);
      const run = await narrow(['query', name, ...claude]);
      expect(run.code, run.stderr).toBe(0);
      expectFits(run.stdout, identifiers(json), `claude-code ${name}`);
    }
    const sessions = (await runJson<{ session_id: string }[]>(['sql', 'SELECT session_id FROM agent_sessions ORDER BY 1', ...claude])).value.map((r) => r.session_id);
    expect(sessions.length).toBe(4);
    for (const session of sessions) {
      const json = (await runJson<{ ts: string | null; file: string; line: number; agent: string | null; event: string }[]>(['timeline', session, ...claude])).value;
      const ids = json.flatMap((r) => [`${path.posix.basename(r.file)}:${r.line}`, r.event, r.agent ?? '', r.ts?.slice(11) ?? ''].filter((id) => id !== ''));
      const run = await narrow(['timeline', session, ...claude]);
      expect(run.code, run.stderr).toBe(0);
      expectFits(run.stdout, ids, `claude-code timeline ${session}`);
    }
  });

  it('load, and the queries list', async () => {
    const run = await narrow(['load', HOME, '--db', path.join(work.dir, 'load.duckdb'), '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    expectFits(run.stdout, [], 'load');
    expectFits((await narrow(['queries'])).stdout, queries.map((q) => q.name), 'queries');
  });

  it('a table whose ids fit is a box, its free text cut with …; one whose ids do not is expanded', async () => {
    const fits = await narrow(['sql', `SELECT session_id, repeat('word ', 30) AS message, NULL AS nothing FROM sessions ORDER BY 1`, ...db]);
    const lines = fits.stdout.split('\n');
    expect(lines[0].startsWith('┌')).toBe(true);
    expect(lines[3]).toMatch(/^│ 20260812-142207-8d3e61f0 │ word word .*…\s*│ NULL    │$/);
    expect(stringWidth(lines[3])).toBe(WIDTH);
    const expanded = await narrow(['query', 'retry-by-agent', ...db]);
    expect(expanded.stdout.startsWith('-[ RECORD 1 ]')).toBe(true);
  });
});
