#!/usr/bin/env node
// Ingestion benchmark: four contenders, one corpus, one run.
//   node bench/ingest-bench.mjs --home DIR [--repeat N] [--json] [--skip-load | --skip-baselines]
// (a) raw DuckDB read_json with typed columns into a table   (child node process; file db and,
//     for reference, in-memory, and in a db file within load's 192 MB memory limit)
// (b) plain Node readline + JSON.parse loop                   (child node process)
// (c) node dist/cli.js load <home> --db <fresh> --quiet        (spawned)
// (d) the same again on the unchanged home                     (re-run)
// (c') node dist/cli.js load <the events.jsonl files> --db <fresh> --quiet: the same files as (a)
// (e) the SQL load runs for events.jsonl, alone, with load's settings: a floor for (c)
// Every contender gets its own process so peak RSS is its own; the page cache is warmed first.
// Each contender runs --repeat times (default 3), rounds interleaved; best wall time is reported.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from './lib/args.mjs';
import { eventsFiles, homeBytes, totalBytes, warmCache } from './lib/corpus.mjs';
import { rssMethod, runMeasured } from './lib/measure.mjs';
import { crossCheck, printReport, ratios } from './lib/report.mjs';

const args = parseArgs(process.argv.slice(2), {
  home: { type: 'string', required: true },
  json: { type: 'boolean' },
  'skip-load': { type: 'boolean' },
  'skip-baselines': { type: 'boolean' },
  repeat: { type: 'number', default: 3 },
});
const repo = path.resolve(import.meta.dirname, '..');
const lib = path.join(repo, 'bench', 'lib');
const home = path.resolve(args.home);
const log = (message) => {
  if (!args.json) process.stderr.write(`${message}\n`);
};

const files = eventsFiles(home);
const eventsBytes = totalBytes(files);
const all = homeBytes(home);
const manifestPath = `${home}.manifest.json`;
const manifest = fs.existsSync(manifestPath) ? JSON.parse(fs.readFileSync(manifestPath, 'utf8')) : null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trajaudit-ingest-bench-'));
const listFile = path.join(work, 'files.txt');
fs.writeFileSync(listFile, `${files.join('\n')}\n`);

log(`corpus: ${files.length} events.jsonl files, ${(eventsBytes / 2 ** 20).toFixed(1)} MiB (home: ${all.files} files, ${(all.bytes / 2 ** 20).toFixed(1)} MiB)`);
log('warming the page cache…');
warmCache(files);

const node = process.execPath;
const results = {};

/** One measured run of a contender; rounds are interleaved so machine noise hits all alike. */
async function contender(key, label, command, argv) {
  log(`  ${label}…`);
  const run = await runMeasured(command, argv, { cwd: repo, env: { NO_COLOR: '1' } });
  const entry = (results[key] ??= { label, command: [path.basename(command), ...argv.map((a) => path.relative(repo, a) || a)].join(' '), runs: [] });
  const sample = { wallSeconds: run.wallSeconds, peakRssMiB: run.peakRssKiB / 1024, exitCode: run.exitCode };
  entry.runs.push(sample);
  if (run.exitCode !== 0) {
    entry.error = (run.stderr.trim().split('\n')[0] || `exit ${run.exitCode}`).slice(0, 300);
    return false;
  }
  const last = run.stdout.trim().split('\n').pop();
  try {
    Object.assign(entry, JSON.parse(last));
  } catch {
    entry.stdoutTail = run.stdout.trim().split('\n').slice(-3).join('\n');
  }
  return true;
}

const cli = path.join(repo, 'dist', 'cli.js');
const runLoad = !args['skip-load'] && fs.existsSync(cli);
if (!args['skip-load'] && !runLoad) results.load = { label: '(c) trajaudit load', error: `${cli} not found; run npm run build`, runs: [] };
const db = path.join(work, 'bench.duckdb');
const eventsDb = path.join(work, 'events-only.duckdb');
const rawDb = path.join(work, 'raw.duckdb');
const floorDb = path.join(work, 'floor.duckdb');
const dropDb = (file) => {
  for (const suffix of ['', '.wal', '.lock']) fs.rmSync(`${file}${suffix}`, { force: true });
};
async function baselines() {
  dropDb(rawDb);
  await contender('rawDuckdb', '(a) raw DuckDB read_json → table in db file', node, [path.join(lib, 'raw-duckdb.mjs'), listFile, rawDb]);
  dropDb(rawDb);
  await contender('rawDuckdbBudget', "(a'') raw DuckDB read_json, load's 192MB limit", node, [path.join(lib, 'raw-duckdb.mjs'), listFile, rawDb, '192MB']);
  dropDb(rawDb);
  await contender('rawDuckdbMemory', "(a') raw DuckDB read_json → in-memory table", node, [path.join(lib, 'raw-duckdb.mjs'), listFile, ':memory:']);
  await contender('nodeLoop', '(b) Node readline + JSON.parse', node, [path.join(lib, 'node-loop.mjs'), listFile]);
  dropDb(floorDb);
  await contender('floor', "(e) load's events SQL alone (floor for c)", node, [path.join(lib, 'floor-duckdb.mjs'), listFile, floorDb]);
  dropDb(floorDb);
}

for (let round = 1; round <= args.repeat; round++) {
  log(`round ${round}/${args.repeat}`);
  if (!args['skip-baselines']) await baselines();
  if (!runLoad || results.load?.error) continue;
  dropDb(db);
  const loadArgs = [cli, 'load', home, '--db', db, '--quiet'];
  if (!(await contender('load', '(c) trajaudit load (fresh db)', node, loadArgs))) continue;
  await contender('rerun', '(d) trajaudit load (unchanged re-run)', node, loadArgs);
  dropDb(eventsDb);
  await contender('loadEvents', "(c') trajaudit load, events.jsonl files only", node, [cli, 'load', ...files, '--db', eventsDb, '--quiet']);
  dropDb(eventsDb);
}

if (results.load && !results.load.error) {
  const counts = await runMeasured(node, [path.join(lib, 'db-counts.mjs'), db], { cwd: repo });
  results.load.database = counts.exitCode === 0 ? JSON.parse(counts.stdout.trim().split('\n').pop()) : { error: counts.stderr.trim().split('\n')[0] };
  results.load.dbMiB = fs.statSync(db).size / 2 ** 20;
}
fs.rmSync(work, { recursive: true, force: true });

// Best-of-N wall time (least disturbed by other work on a shared machine), max-of-N peak RSS.
for (const entry of Object.values(results)) {
  const ok = entry.runs.filter((r) => r.exitCode === 0);
  if (ok.length === 0) continue;
  const walls = ok.map((r) => r.wallSeconds).sort((a, b) => a - b);
  entry.wallSeconds = walls[0];
  entry.medianWallSeconds = walls[Math.floor((walls.length - 1) / 2)];
  entry.mibPerSecond = eventsBytes / 2 ** 20 / entry.wallSeconds;
  entry.peakRssMiB = Math.max(...ok.map((r) => r.peakRssMiB));
  entry.exitCode = 0;
}
if (results.load?.wallSeconds) results.load.allInputMiBPerSecond = all.bytes / 2 ** 20 / results.load.wallSeconds;

const report = {
  corpus: {
    home,
    eventsFiles: files.length,
    eventsBytes,
    homeFiles: all.files,
    homeBytes: all.bytes,
    manifest: manifest ? manifest.events : null,
  },
  machine: { cpus: os.cpus().length, node: process.version, rssMethod, repeat: args.repeat },
  results,
};
report.ratios = ratios(report);
report.crossCheck = crossCheck(report);
if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else printReport(report);
