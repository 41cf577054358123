#!/usr/bin/env node
// Load and query benchmark over a Claude Code config dir (made by bench/gen-claude-home.mjs).
//   node bench/claude-bench.mjs --home DIR [--repeat 3] [--sid-home SIDDIR] [--json] [--oom-retry-limit 1GB]
// Each round, per home: `node dist/cli.js load <home> --db <fresh>.duckdb --quiet --format json` on a
// fresh db, then the same again on the unchanged home into the same db. Then, over the Claude db,
// `query api-errors`, `query agent-outcomes`, `query tool-errors` and `sql "SELECT 1"`, --repeat
// times each. Wall clock includes process spawn; medians are reported (min and max beside them).
// MiB/s = every byte of the home (all files under it) / the median fresh-load time.
// With --sid-home (a sid-code home from bench/gen-home.mjs) its load is timed the same way, rounds
// interleaved with the Claude ones, and the ratio Claude MiB/s ÷ sid-code MiB/s is printed.
// A query that runs out of DuckDB memory is reported as failed, then timed once more with
// TRAJAUDIT_MEMORY_LIMIT=<--oom-retry-limit> so the table still shows what it costs.
// The temp dbs are removed at the end.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fail, parseArgs } from './lib/args.mjs';
import { homeBytes, warmCache } from './lib/corpus.mjs';
import { rssMethod, runMeasured } from './lib/measure.mjs';

const args = parseArgs(process.argv.slice(2), {
  home: { type: 'string', required: true },
  'sid-home': { type: 'string' },
  repeat: { type: 'number', default: 3 },
  json: { type: 'boolean' },
  'oom-retry-limit': { type: 'string', default: '1GB' },
});
if (!(args.repeat >= 1)) fail('--repeat must be at least 1');

const repo = path.resolve(import.meta.dirname, '..');
const cli = path.join(repo, 'dist', 'cli.js');
if (!fs.existsSync(cli)) fail(`${cli} not found; build first (npm run build)`);
const node = process.execPath;
const log = (message) => {
  if (!args.json) process.stderr.write(`${message}\n`);
};

function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

function corpus(dir, label) {
  const home = path.resolve(dir);
  if (!fs.existsSync(home)) fail(`${home} does not exist`);
  const { bytes, files } = homeBytes(home);
  const manifestPath = `${home}.manifest.json`;
  const manifest = fs.existsSync(manifestPath) ? JSON.parse(fs.readFileSync(manifestPath, 'utf8')) : null;
  return { label, home, bytes, files, manifest };
}

const claude = corpus(args.home, 'claude-code');
const sid = args['sid-home'] ? corpus(args['sid-home'], 'sid-code') : null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trajaudit-claude-bench-'));
const dropDb = (file) => {
  for (const suffix of ['', '.wal', '.lock']) fs.rmSync(`${file}${suffix}`, { force: true });
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** One timed CLI run; failures keep their exit code and stderr. */
async function timed(entry, argv, env = {}) {
  const run = await runMeasured(node, [cli, ...argv], { cwd: repo, env: { NO_COLOR: '1', ...env } });
  const sample = { wallSeconds: run.wallSeconds, peakRssMiB: run.peakRssKiB / 1024, exitCode: run.exitCode };
  entry.runs.push(sample);
  if (run.exitCode !== 0) {
    entry.failures.push({ exitCode: run.exitCode, signal: run.signal, stderr: run.stderr.trim().slice(0, 2000) });
  } else if (run.stderr.trim()) {
    entry.stderr = run.stderr.trim().slice(0, 2000); // --quiet runs should print nothing there
  }
  return run;
}

function newEntry(label, command) {
  return { label, command, runs: [], failures: [] };
}

function summarize(entry, bytes) {
  const ok = entry.runs.filter((r) => r.exitCode === 0).map((r) => r.wallSeconds);
  if (ok.length) {
    entry.medianSeconds = median(ok);
    entry.minSeconds = Math.min(...ok);
    entry.maxSeconds = Math.max(...ok);
    if (bytes) entry.mibPerSecond = bytes / 2 ** 20 / entry.medianSeconds;
  }
  entry.peakRssMiB = Math.max(0, ...entry.runs.map((r) => r.peakRssMiB).filter(Number.isFinite));
  return entry;
}

const results = { load: {}, reload: {}, queries: {} };
const dbs = {};
try {
  for (const c of [claude, sid].filter(Boolean)) {
    log(`${c.label}: ${c.home}: ${c.files} files, ${(c.bytes / 2 ** 20).toFixed(1)} MiB; warming the page cache…`);
    warmCache(listFiles(c.home));
    dbs[c.label] = path.join(work, `${c.label}.duckdb`);
    const cmd = `node dist/cli.js load ${c.home} --db <tmp>/${c.label}.duckdb --quiet --format json`;
    results.load[c.label] = newEntry(`${c.label} load (fresh db)`, cmd);
    results.reload[c.label] = newEntry(`${c.label} load (unchanged re-run)`, cmd);
  }

  for (let round = 1; round <= args.repeat; round++) {
    for (const c of [claude, sid].filter(Boolean)) {
      log(`round ${round}/${args.repeat}: ${c.label} load…`);
      const db = dbs[c.label];
      dropDb(db);
      const argv = ['load', c.home, '--db', db, '--quiet', '--format', 'json'];
      const first = await timed(results.load[c.label], argv);
      if (first.exitCode !== 0) continue;
      try {
        results.load[c.label].summary = JSON.parse(first.stdout)[0];
      } catch {
        results.load[c.label].stdoutTail = first.stdout.slice(-500);
      }
      const again = await timed(results.reload[c.label], argv);
      if (again.exitCode === 0) {
        try {
          results.reload[c.label].summary = JSON.parse(again.stdout)[0];
        } catch {
          // kept in runs
        }
      }
    }
  }
  for (const c of [claude, sid].filter(Boolean)) {
    summarize(results.load[c.label], c.bytes);
    summarize(results.reload[c.label]);
    results.load[c.label].dbMiB = fs.existsSync(dbs[c.label]) ? fs.statSync(dbs[c.label]).size / 2 ** 20 : null;
  }

  const QUERIES = [
    ['api-errors', ['query', 'api-errors']],
    ['agent-outcomes', ['query', 'agent-outcomes']],
    ['tool-errors', ['query', 'tool-errors']],
    ['sql SELECT 1', ['sql', 'SELECT 1']],
  ];
  const claudeDb = dbs['claude-code'];
  if (results.load['claude-code'].medianSeconds !== undefined && fs.existsSync(claudeDb)) {
    for (let round = 1; round <= args.repeat; round++) {
      for (const [name, argv] of QUERIES) {
        log(`round ${round}/${args.repeat}: ${name}…`);
        const entry = (results.queries[name] ??= newEntry(name, `node dist/cli.js ${argv.map((a) => (a.includes(' ') ? `"${a}"` : a)).join(' ')} --db <tmp>/claude-code.duckdb --quiet --format json`));
        const run = await timed(entry, [...argv, '--db', claudeDb, '--quiet', '--format', 'json']);
        if (run.exitCode === 0 && entry.rows === undefined) {
          try {
            entry.rows = JSON.parse(run.stdout).length;
          } catch {
            entry.rows = null;
          }
        }
      }
    }
    // Out of DuckDB memory at the default limit: time it once more with a larger limit.
    for (const [name, argv] of QUERIES) {
      const entry = results.queries[name];
      if (!entry.failures.some((f) => /out of memory/i.test(f.stderr))) continue;
      const key = `${name} (TRAJAUDIT_MEMORY_LIMIT=${args['oom-retry-limit']})`;
      const retry = (results.queries[key] = newEntry(key, `TRAJAUDIT_MEMORY_LIMIT=${args['oom-retry-limit']} ${entry.command}`));
      for (let round = 1; round <= args.repeat; round++) {
        log(`round ${round}/${args.repeat}: ${key}…`);
        const run = await timed(retry, [...argv, '--db', claudeDb, '--quiet', '--format', 'json'], { TRAJAUDIT_MEMORY_LIMIT: args['oom-retry-limit'] });
        if (run.exitCode === 0 && retry.rows === undefined) {
          try {
            retry.rows = JSON.parse(run.stdout).length;
          } catch {
            retry.rows = null;
          }
        }
      }
    }
    for (const entry of Object.values(results.queries)) summarize(entry);
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const c = results.load['claude-code'];
const s = sid ? results.load['sid-code'] : null;
const report = {
  machine: { cpus: os.cpus().length, loadavg: os.loadavg().map((x) => Number(x.toFixed(2))), node: process.version, rssMethod, repeat: args.repeat },
  corpora: Object.fromEntries([claude, sid].filter(Boolean).map((x) => [x.label, { home: x.home, files: x.files, bytes: x.bytes, manifest: x.manifest }])),
  results,
  ratio: s?.mibPerSecond && c?.mibPerSecond ? c.mibPerSecond / s.mibPerSecond : null,
};

if (args.json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const f = (x, d = 2) => (x === undefined || x === null ? '—' : x.toFixed(d));
  const rows = [['what', 'median s', 'min–max s', 'MiB/s', 'peak RSS MiB', 'ok/runs', 'note']];
  const add = (e, note = '') => {
    const ok = e.runs.filter((r) => r.exitCode === 0).length;
    const failNote = e.failures.length ? `exit ${e.failures[0].exitCode}: ${e.failures[0].stderr.split('\n')[0].slice(0, 90)}` : '';
    rows.push([e.label, f(e.medianSeconds), e.minSeconds === undefined ? '—' : `${f(e.minSeconds)}–${f(e.maxSeconds)}`, f(e.mibPerSecond, 1), f(e.peakRssMiB, 0), `${ok}/${e.runs.length}`, [note, failNote].filter(Boolean).join('; ')]);
  };
  for (const label of Object.keys(results.load)) {
    const corp = label === 'claude-code' ? claude : sid;
    const sum = results.load[label].summary;
    add(results.load[label], `${(corp.bytes / 2 ** 20).toFixed(1)} MiB, ${corp.files} files${sum ? `; malformed_lines ${sum.malformed_lines}` : ''}${results.load[label].dbMiB ? `; db ${results.load[label].dbMiB.toFixed(0)} MiB` : ''}`);
    const re = results.reload[label].summary;
    add(results.reload[label], re ? `unchanged ${re.unchanged}/${re.files}` : '');
  }
  for (const e of Object.values(results.queries)) add(e, e.rows === undefined || e.rows === null ? '' : `${e.rows} rows`);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const out = rows.map((r) => r.map((v, i) => String(v).padEnd(widths[i])).join('  ').trimEnd());
  out.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  process.stdout.write(`${out.join('\n')}\n`);
  if (report.ratio !== null) process.stdout.write(`\nclaude-code MiB/s ÷ sid-code MiB/s = ${report.ratio.toFixed(2)} (each: all bytes under the home / median fresh-load wall time)\n`);
  process.stdout.write(`machine: ${report.machine.cpus} CPUs, load average ${report.machine.loadavg.join(' ')} at the end, node ${process.version}; wall times include process start-up and are noisy on a shared box\n`);
  const stray = [...Object.values(results.load), ...Object.values(results.reload), ...Object.values(results.queries)].filter((e) => e.stderr);
  for (const e of stray) process.stdout.write(`stderr from ${e.label}: ${e.stderr.split('\n')[0]}\n`);
  for (const e of [...Object.values(results.load), ...Object.values(results.reload), ...Object.values(results.queries)]) {
    for (const fl of e.failures.slice(0, 1)) process.stdout.write(`FAILED ${e.label} (exit ${fl.exitCode}): ${e.command}\n  ${fl.stderr.replace(/\n/g, '\n  ')}\n`);
  }
}
const anyFailed = [...Object.values(results.load), ...Object.values(results.reload)].some((e) => e.failures.length) ||
  Object.entries(results.queries).some(([k, e]) => !k.includes('TRAJAUDIT_MEMORY_LIMIT') && e.failures.length);
process.exitCode = anyFailed ? 1 : 0;
