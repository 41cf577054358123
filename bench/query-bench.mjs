#!/usr/bin/env node
// Query bench (issue 24): every canned query and the whole-span report over a loaded --db, each as
// a ratio to `trajaudit sql "SELECT 1"` on the same file (process start and DuckDB open included),
// measured in turn (SELECT 1, then the command, pair by pair) so that drift on a shared machine
// moves both. Each query also against its floor: the same SQL by raw DuckDB in a bare Node process
// (lib/raw-query.mjs). Prints the median ratios and wall time of each, and the report's peak RSS.
//   node bench/query-bench.mjs --home DIR [--db FILE] [--repeat 3] [--json]
// Without --db, the home is loaded into a fresh file in the OS temp dir first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fail, parseArgs } from './lib/args.mjs';
import { runMeasured } from './lib/measure.mjs';

const args = parseArgs(process.argv.slice(2), {
  home: { type: 'string' },
  db: { type: 'string' },
  repeat: { type: 'number', default: 3 },
  json: { type: 'boolean' },
});
if (!args.home && !args.db) fail('give --home DIR (loaded into a fresh --db) or --db FILE');

const repo = path.dirname(import.meta.dirname);
const cli = path.join(repo, 'dist', 'cli.js');
const node = process.execPath;
const log = (line) => process.stderr.write(`${line}\n`);

let db = args.db;
if (!db) {
  db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trajaudit-query-bench-')), 'bench.duckdb');
  log(`loading ${args.home} into ${db}`);
  const load = await runMeasured(node, [cli, 'load', args.home, '--db', db, '--quiet'], { cwd: repo });
  if (load.exitCode !== 0) fail(`load failed (exit ${load.exitCode}): ${load.stderr.trim()}`);
  log(`  ${load.wallSeconds.toFixed(2)} s`);
}

const queries = fs.readdirSync(path.join(repo, 'queries')).filter((f) => f.endsWith('.sql')).map((f) => f.slice(0, -4)).sort();
const contenders = [
  ...queries.map((name) => ({ name: `query ${name}`, argv: ['query', name, '--db', db, '--format', 'json'], floor: path.join(repo, 'queries', `${name}.sql`) })),
  { name: 'report (whole span)', argv: ['report', '--since', '2000-01-01', '--until', '2100-01-01', '--db', db, '--format', 'json'] },
];
const trivial = ['sql', 'SELECT 1', '--db', db, '--format', 'json'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function timed(argv, script = cli) {
  const run = await runMeasured(node, [script, ...argv], { cwd: repo });
  if (run.exitCode !== 0) fail(`${argv.slice(0, 2).join(' ')} failed (exit ${run.exitCode}): ${run.stderr.trim().split('\n')[0]}`);
  return run;
}
const rawQuery = path.join(repo, 'bench', 'lib', 'raw-query.mjs');

const results = [];
for (const contender of contenders) {
  const pairs = [];
  for (let k = 0; k < args.repeat; k++) {
    const base = await timed(trivial);
    const run = await timed(contender.argv);
    const floor = contender.floor ? await timed([db, contender.floor], rawQuery) : null;
    pairs.push({ base: base.wallSeconds, wall: run.wallSeconds, floor: floor?.wallSeconds, peakRssMiB: run.peakRssKiB / 1024 });
  }
  const result = {
    name: contender.name,
    ratio: median(pairs.map((p) => p.wall / p.base)),
    wallSeconds: median(pairs.map((p) => p.wall)),
    selectOneSeconds: median(pairs.map((p) => p.base)),
    peakRssMiB: Math.max(...pairs.map((p) => p.peakRssMiB)),
    ...(contender.floor ? { floorRatio: median(pairs.map((p) => p.wall / p.floor)), floorSeconds: median(pairs.map((p) => p.floor)) } : {}),
  };
  results.push(result);
  const floor = contender.floor ? `, ${result.floorRatio.toFixed(2)}× its floor (${result.floorSeconds.toFixed(2)} s)` : '';
  log(`${contender.name.padEnd(34)} ${result.ratio.toFixed(2)}× SELECT 1  (${result.wallSeconds.toFixed(2)} s against ${result.selectOneSeconds.toFixed(2)} s, ${result.peakRssMiB.toFixed(0)} MiB)${floor}`);
}

const report = { db, dbMiB: fs.statSync(db).size / 2 ** 20, repeat: args.repeat, results };
if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else {
  const slowest = results.filter((r) => r.name.startsWith('query')).reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const whole = results.find((r) => r.name.startsWith('report'));
  process.stdout.write(`slowest query: ${slowest.name} ${slowest.ratio.toFixed(2)}× SELECT 1; report ${whole.ratio.toFixed(2)}× (peak RSS ${whole.peakRssMiB.toFixed(0)} MiB); db ${report.dbMiB.toFixed(0)} MiB\n`);
}
