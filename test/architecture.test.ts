// The layers of STYLE.md, enforced over the source text.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers/run-cli.js';

const SRC = path.join(REPO, 'src');
const files = (fs.readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.split(path.sep).join('/'));
const text = (f: string) => fs.readFileSync(path.join(SRC, f), 'utf8');
const imports = (f: string) => [...text(f).matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);

/** Everything a module pulls in through static relative imports. */
function closure(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const spec of [...text(f).matchAll(/^import[^;]*?from\s*'([^']+)'/gms)].map((m) => m[1])) {
      if (!spec.startsWith('.')) {
        seen.add(spec);
        continue;
      }
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(f), spec)).replace(/\.js$/, '.ts');
      if (fs.existsSync(path.join(SRC, target))) visit(target);
    }
  };
  visit(start);
  return seen;
}

describe('architecture', () => {
  it('only src/db/ imports @duckdb/node-api', () => {
    const offenders = files.filter((f) => !f.startsWith('db/') && imports(f).some((i) => i.startsWith('@duckdb/')));
    expect(offenders).toEqual([]);
  });

  it('only src/cli.ts writes stdout or sets the exit code', () => {
    const offenders = files.filter((f) => f !== 'cli.ts' && /process\.stdout\.write|process\.exit\b|process\.exitCode|console\.log/.test(text(f)));
    expect(offenders).toEqual([]);
  });

  it('render/ imports nothing from ingest/ or db/', () => {
    const offenders = files.filter((f) => f.startsWith('render/') && imports(f).some((i) => /\/(ingest|db)\//.test(i)));
    expect(offenders).toEqual([]);
  });

  it('the static-check command never loads DuckDB, even transitively', () => {
    // check.ts picks run-check.ts, or the worker that runs it (--types), by dynamic import.
    const reached = ['commands/check.ts', 'commands/run-check.ts', 'commands/check-in-worker.ts', 'commands/check-worker.ts'].flatMap((f) => [...closure(f)]);
    expect(reached).toContain('checks/engine.ts');
    expect(reached.filter((m) => m.startsWith('@duckdb/') || m.startsWith('db/'))).toEqual([]);
  });

  it('cli.ts imports command modules lazily, so --help and check start without DuckDB', () => {
    expect([...text('cli.ts').matchAll(/^import[^;]*from\s*'([^']+)'/gm)].map((m) => m[1]).sort()).toEqual(['./command-result.js', './errors.js', './render/visible-text.js', 'commander', 'node:fs']);
  });
});
