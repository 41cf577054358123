import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBinary } from '../helpers/run-cli.js';
import { repoRoot, runCli } from './run-cli.js';

const tracer = path.join(import.meta.dirname, 'trace-duckdb.cjs');
const entryPoints = ['src/commands/check.ts', 'src/checks/engine.ts', 'src/checks/index.ts', 'src/baseline/match.ts', 'src/baseline/baseline-file.ts', 'src/config/load-config.ts', 'src/render-check/index.ts'];

/** Every module reachable from a file through static and dynamic imports: relative ones as files, bare ones as package names. */
function importGraph(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = entries.map((e) => path.join(repoRoot, e));
  while (pending.length) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+|new\s+URL\s*\(\s*)['"]([^'"]+)['"]/g)) {
      const spec = match[1];
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts');
      if (!existsSync(target)) throw new Error(`${file}: cannot resolve ${spec}`);
      pending.push(target);
    }
  }
  return { files, packages };
}

describe('the static-check half never loads DuckDB', () => {
  it('no module reachable from check, checks, baseline, config or render-check imports @duckdb or src/db', () => {
    const { files, packages } = importGraph(entryPoints);
    expect(files.size).toBeGreaterThan(20);
    expect([...packages].filter((p) => p.includes('duckdb'))).toEqual([]);
    expect([...files].filter((f) => f.includes(`${path.sep}db${path.sep}`))).toEqual([]);
    expect(packages).toContain('typescript');
  });

  it('the tracer sees DuckDB when it is loaded (control)', () => {
    const run = spawnSync(process.execPath, ['-r', tracer, '-e', "import('@duckdb/node-api').then(() => {})"], { cwd: repoRoot, encoding: 'utf8' });
    expect(run.stderr).toMatch(/DUCKDB-LOADED/);
  });

  it('`check --help` and a check run load no DuckDB', async () => {
    const help = runBinary(['check', '--help'], { nodeArgs: ['-r', tracer] });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('static checks over TypeScript source');
    expect(help.stderr).toBe('');
    const run = runBinary(['check', 'fixtures/check-dead-catch', '--types'], { nodeArgs: ['-r', tracer] });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
  });
});
