import fs from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { loadQueries } from '../../src/queries/load-queries.js';
import { REPO, runCli, runJson } from '../helpers/run-cli.js';

// `trajaudit queries` is an index, one line per query; `queries NAME` is one query in full.
const queries = loadQueries();
const names = queries.map((q) => q.name);
const FOOTER = '\nOne in full: trajaudit queries NAME. Run one: trajaudit query NAME [paths…] [--db F].\n';
const queriesDoc = fs.readFileSync(path.join(REPO, 'docs/queries.md'), 'utf8');

/** The `text` code blocks of docs/queries.md that follow a line `$ <command>`, by command. */
function documentedRuns(): Map<string, string> {
  return new Map([...queriesDoc.matchAll(/```text\n\$ (.*)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]));
}

describe('trajaudit queries: one line per query', () => {
  it('on a pipe: each name and the whole first sentence of its description, then where to go next', async () => {
    const run = await runCli(['queries']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.endsWith(FOOTER)).toBe(true);
    const lines = run.stdout.slice(0, -FOOTER.length).split('\n').slice(0, -1);
    expect(lines.map((line) => line.split(' ')[0])).toEqual(names);
    expect(lines[names.indexOf('retry-budget')]).toBe('retry-budget              Did an agent stop retrying because time ran out or because retries did?');
    expect(lines[names.indexOf('retry-by-agent')]).toBe(
      'retry-by-agent            Which subagent retried how often, zero retries included.',
    );
  });

  it('with COLUMNS=100 each line fits, its summary cut with …; the docs show that output', async () => {
    const run = await runCli(['queries'], { env: { COLUMNS: '100' } });
    const lines = run.stdout.split('\n');
    expect(lines).toHaveLength(names.length + FOOTER.split('\n').length);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(100);
    expect(lines.filter((line) => line.endsWith('…')).length).toBeGreaterThan(5);
    // docs/queries.md shows some of the lines, `…` standing for the others.
    const documented = documentedRuns().get('COLUMNS=100 trajaudit queries')!.split('\n').filter((line) => line !== '…');
    expect(documented.length).toBeGreaterThan(5);
    for (const line of documented) expect(lines).toContain(line);
  });

  it('--format md: a table of name and summary', async () => {
    const run = await runCli(['queries', '--format', 'md']);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual(['| name | summary |', '| --- | --- |']);
    expect(run.stdout).toContain('\n| timeouts | Which timeout layer fired, and did it take effect? |\n');
    expect(run.stdout.split('\n')).toHaveLength(names.length + 3);
  });

  it('--format json keeps every field in full, with the SQL file and the docs section of each', async () => {
    const { value } = await runJson<{ name: string; description: string; columns: string; sql: string; docs: string }[]>(['queries']);
    expect(value.map((q) => q.name)).toEqual(names);
    for (const [i, q] of value.entries()) {
      expect(q.description).toBe(queries[i].description);
      expect(q.columns).toBe(queries[i].columns.join(', '));
      expect(q.sql).toBe(`queries/${q.name}.sql`);
      expect(fs.existsSync(path.join(REPO, q.sql))).toBe(true);
      // The section docs/queries.md heads with the query's name.
      expect(q.docs).toBe(`docs/queries.md#${q.name}`);
      expect(queriesDoc).toContain(`\n## ${q.name}\n`);
    }
  });
});

describe('trajaudit queries NAME: one query in full', () => {
  it('its description, parameters, columns, SQL file and docs section, as docs/queries.md shows', async () => {
    const run = await runCli(['queries', 'retry-by-agent']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(documentedRuns().get('trajaudit queries retry-by-agent'));
  });

  it('a parameter set by --param or the config says so; with a width, the description wraps to it', async () => {
    const run = await runCli(['queries', 'test-pollution'], { env: { COLUMNS: '80' } });
    expect(run.stdout).toContain('\n  test_pattern  VARCHAR    \'^\\[轮次 \\d+\\] (spawn )?测试响应\\n?$\'  --param test_pattern=…, or tasks.testPatterns in trajaudit.config.json\n');
    expect(run.stdout.startsWith('test-pollution\n  Census of every tasks/<taskId>.output loaded, by category: always three rows,\n  test, empty and real,')).toBe(true);
    const herd = await runCli(['queries', 'cooldown-herd']);
    expect(herd.stdout).toContain('\n  window_ms   BIGINT     250      --param window_ms=…\n');
  });

  it('--format csv is its one row, md a section', async () => {
    const csv = (await runCli(['queries', 'timeouts', '--format', 'csv'])).stdout.split('\r\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]).toBe('name,description,params,columns,sql,docs');
    expect(csv[1]).toMatch(/^timeouts,"Which timeout layer fired, .*,queries\/timeouts\.sql,docs\/queries\.md#timeouts$/);
    const md = (await runCli(['queries', 'timeouts', '--format', 'md'])).stdout;
    expect(md).toMatch(/^## timeouts\n\nWhich timeout layer fired, /);
    expect(md).toContain('\n| name | type | default | set by |\n');
    expect(md).toContain('\nSQL: `queries/timeouts.sql`. Explained in `docs/queries.md#timeouts`.\n');
  });

  it('an unknown name exits 2 with a did-you-mean, as query NAME does', async () => {
    const stderr = `trajaudit: unknown query "retry-by-agnet"; did you mean "retry-by-agent"? the canned queries are: ${names.join(', ')}\n`;
    expect(await runCli(['queries', 'retry-by-agnet'])).toEqual({ code: 2, stdout: '', stderr });
    expect(await runCli(['queries', 'retry-by-agnet', '--format', 'json'])).toEqual({ code: 2, stdout: '', stderr });
    expect((await runCli(['query', 'retry-by-agnet'])).stderr).toBe(stderr);
  });
});
