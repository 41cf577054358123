import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindParams } from '../../src/queries/bind-params.js';
import { loadQueries, parseQuery, QUERIES_DIR } from '../../src/queries/load-queries.js';
import { runJson } from '../helpers/run-cli.js';
import { homeDb, queryRows } from './query-cli.js';

const files = fs.readdirSync(QUERIES_DIR).filter((f) => f.endsWith('.sql')).sort();
const body = (sql: string) => sql.split('\n').filter((l) => !l.trimStart().startsWith('--')).join('\n');

describe('queries/*.sql', () => {
  it('the directory holds the canned queries of issue 3', () => {
    expect(files).toEqual(expect.arrayContaining(['retry-by-agent.sql', 'retry-telemetry.sql', 'snapshot-attribution.sql', 'subagent-starts.sql', 'test-pollution.sql']));
  });

  it.each(files)('%s parses, its name matches the file, and every param is declared, used and bound', (file) => {
    const text = fs.readFileSync(path.join(QUERIES_DIR, file), 'utf8');
    const query = parseQuery(path.join(QUERIES_DIR, file), text);
    expect(query.name).toBe(path.basename(file, '.sql'));
    expect(query.description.length).toBeGreaterThan(20);
    const used = new Set([...body(text).matchAll(/\$([a-z_][a-z0-9_]*)/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual(query.params.map((p) => p.name).sort());
    const bound = bindParams(query, { params: [] });
    expect(Object.keys(bound).sort()).toEqual(query.params.map((p) => p.name).sort());
  });

  it('loadQueries returns every file, sorted by name', () => {
    expect(loadQueries().map((q) => `${q.name}.sql`)).toEqual(files);
  });

  it.each([
    ['retry-by-agent', ['since', 'until', 'session']],
    ['retry-telemetry', ['since', 'until', 'session']],
    ['snapshot-attribution', ['since', 'until', 'session']],
    ['subagent-starts', ['since', 'until', 'session']],
    ['test-pollution', ['since', 'until', 'test_pattern']],
  ])('%s declares the parameters the CLI flags bind', (name, params) => {
    const query = loadQueries().find((q) => q.name === name);
    expect(query?.params.map((p) => p.name)).toEqual(params);
  });

  it('`trajaudit queries` lists each file with its description and parameters', async () => {
    const { value, run } = await runJson<Array<{ name: string; description: string; params: string }>>(['queries']);
    expect(run.code).toBe(0);
    expect(value.map((q) => q.name)).toEqual(files.map((f) => path.basename(f, '.sql')));
    const starts = value.find((q) => q.name === 'subagent-starts');
    expect(starts?.description).toMatch(/^Subagent outcomes per agent_type: .*\(quantile_disc 0\.5: /);
    expect(starts?.params).toBe('since TIMESTAMP = NULL; until TIMESTAMP = NULL; session VARCHAR = NULL');
  });

  it('each `-- columns:` line names the result columns in order (on the bundled home)', async () => {
    const withRows: string[] = [];
    for (const query of loadQueries()) {
      const { rows } = await queryRows(query.name, [...(await homeDb())]);
      if (rows.length === 0) continue;
      withRows.push(query.name);
      expect(Object.keys(rows[0]), query.name).toEqual(query.columns);
    }
    // Not vacuous: most of the queries have rows on the bundled home.
    expect(withRows.length, withRows.join(', ')).toBeGreaterThanOrEqual(8);
  });
});

describe('the loader rejects a malformed query file', () => {
  const header = (name: string) => `-- name: ${name}\n-- description: a test query\n-- columns: x\n`;
  it('a header name that differs from the file name', () => {
    expect(() => parseQuery('/q/right.sql', `${header('wrong')}SELECT 1`)).toThrow('canned query right.sql: header "-- name: wrong" must equal the file name "right"');
  });
  it('a file without a "-- columns:" line', () => {
    expect(() => parseQuery('/q/x.sql', '-- name: x\n-- description: a test query\nSELECT 1 AS x')).toThrow('canned query x.sql: missing "-- columns:"');
  });
  it('a declared parameter that is never used', () => {
    expect(() => parseQuery('/q/x.sql', `${header('x')}-- param: since TIMESTAMP = NULL\nSELECT 1`)).toThrow('param since is declared but never used');
  });
  it('a $parameter that is not declared', () => {
    expect(() => parseQuery('/q/x.sql', `${header('x')}SELECT $until`)).toThrow('$until is used but not declared');
  });
  it('a parameter type outside the five', () => {
    expect(() => parseQuery('/q/x.sql', `${header('x')}-- param: n INTEGER = 1\nSELECT $n`)).toThrow('param n has type INTEGER');
  });
});
