#!/usr/bin/env node
// `npm run bench`: generate (or reuse) a synthetic home in the OS temp dir, run the ingest bench,
// then the Claude Code bench on a Claude Code home of the same size (load against sid-code's,
// unchanged reload, the cross-agent queries), the query bench (every canned query and the report
// against `sql "SELECT 1"`, bench/query-bench.mjs), the malformed-line bench (a 300 MiB home with
// ~0.2 % malformed lines against the same files without them, bench/malformed-bench.mjs), then the
// check bench (bench/check-bench.mjs).
//   node bench/run.mjs [--size 1GiB] [--seed 1] [--repeat 3] [--only ingest|claude|query|malformed|check] [--json]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fail, formatSize, parseArgs } from './lib/args.mjs';

const args = parseArgs(process.argv.slice(2), {
  size: { type: 'size', default: 1024 ** 3 },
  seed: { type: 'number', default: 1 },
  only: { type: 'string' },
  repeat: { type: 'number', default: 3 },
  json: { type: 'boolean' },
});
if (args.only && !['ingest', 'claude', 'query', 'malformed', 'check'].includes(args.only)) fail(`--only must be ingest, claude, query, malformed or check, got ${args.only}`);

const bench = import.meta.dirname;
const node = process.execPath;
let failed = false;

function step(title, script, argv) {
  process.stdout.write(`\n=== ${title} ===\n`);
  const run = spawnSync(node, [path.join(bench, script), ...argv], { stdio: 'inherit', cwd: path.dirname(bench) });
  if (run.status !== 0) {
    failed = true;
    process.stdout.write(`${script} exited with ${run.status ?? run.signal}\n`);
  }
  return run.status === 0;
}

/** The malformed-line bench's home: its size, and malformed lines per MiB (~0.2 % of lines). */
const MALFORMED = { size: 300 * 1024 ** 2, badPerMiB: 7 };

/** Reuses a home generated earlier with the same size and seed (its manifest is written last). */
function ensureHome(kind = 'sid-code', { size = args.size, badPerMiB } = {}) {
  const claude = kind === 'claude-code';
  const bad = badPerMiB === undefined ? '' : `-bad${badPerMiB}`;
  const home = path.join(os.tmpdir(), `trajaudit-bench-${claude ? 'claude-' : ''}home-${formatSize(size)}-seed${args.seed}${bad}`);
  const manifestPath = `${home}.manifest.json`;
  if (fs.existsSync(manifestPath)) {
    const m = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    if (m.size === size && m.seed === args.seed && (badPerMiB === undefined || m.badPerMiB === badPerMiB) && fs.existsSync(home)) {
      process.stdout.write(`\nreusing ${home} (generated earlier: ${m.sessions} sessions, ${claude ? m.lines : m.events.lines} lines)\n`);
      return home;
    }
  }
  const extra = badPerMiB === undefined ? [] : ['--bad-lines-per-mib', String(badPerMiB)];
  const ok = step(`generate ${formatSize(size)} ${kind} home`, claude ? 'gen-claude-home.mjs' : 'gen-home.mjs', ['--out', home, '--size', String(size), '--seed', String(args.seed), '--force', ...extra]);
  if (!ok) fail('the generator failed');
  return home;
}

if (!args.only || args.only === 'ingest') {
  const home = ensureHome();
  step('ingest', 'ingest-bench.mjs', ['--home', home, '--repeat', String(args.repeat), ...(args.json ? ['--json'] : [])]);
}
if (!args.only || args.only === 'claude') {
  const sid = ensureHome();
  const home = ensureHome('claude-code');
  step('claude-code', 'claude-bench.mjs', ['--home', home, '--sid-home', sid, '--repeat', String(args.repeat), ...(args.json ? ['--json'] : [])]);
}
if (!args.only || args.only === 'query') {
  step('queries', 'query-bench.mjs', ['--home', ensureHome(), '--repeat', String(args.repeat), ...(args.json ? ['--json'] : [])]);
}
if (!args.only || args.only === 'malformed') {
  step('malformed lines', 'malformed-bench.mjs', ['--home', ensureHome('sid-code', MALFORMED), '--repeat', String(Math.max(args.repeat, 5)), ...(args.json ? ['--json'] : [])]);
}
if (!args.only || args.only === 'check') {
  if (fs.existsSync(path.join(bench, 'check-bench.mjs'))) step('check', 'check-bench.mjs', args.json ? ['--json'] : []);
  else process.stdout.write('\n=== check ===\nbench/check-bench.mjs not present; skipped\n');
}
process.exitCode = failed ? 1 : 0;
