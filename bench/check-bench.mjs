#!/usr/bin/env node
// Benchmark of `trajaudit check` (issue 4, item 9). Run after a build: `node bench/check-bench.mjs`.
// Compares, on the same files: trajaudit check (syntactic and --types), a bare ts.createSourceFile
// walk, and ripgrep; on a generated 2,000-file tree and on the sources of effect@3.22.4 from npm.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './check-corpus.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(repo, 'dist/cli.js');
const realPackage = 'effect@3.22.4';
const hasGnuTime = existsSync('/usr/bin/time');
const hasRipgrep = spawnSync('rg', ['--version']).status === 0;

if (!existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first');
  process.exit(2);
}

/** Runs a command once: wall ms, peak RSS (MB) and CPU seconds (user+sys, robust to a busy machine). */
function measure(command, args) {
  return hasGnuTime ? measureWithTime(command, args) : measureWithProc(command, args);
}

function measureWithTime(command, args) {
  const statsFile = path.join(os.tmpdir(), `trajaudit-bench-time-${process.pid}`);
  const start = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-f', '%M %U %S', '-o', statsFile, command, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, NO_COLOR: '1' },
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const [kb, user, sys] = readFileSync(statsFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  rmSync(statsFile, { force: true });
  return { wall, rss: kb / 1024, cpu: user + sys, stdout: run.stdout ?? '' };
}

/** Without GNU time: poll /proc/<pid>/status VmHWM while the child runs; CPU from /proc/<pid>/stat is not kept after exit. */
function measureWithProc(command, args) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let peakKb = 0;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const poll = setInterval(() => {
      try {
        const match = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakKb = Math.max(peakKb, Number(match[1]));
      } catch {}
    }, 10);
    child.on('close', () => {
      clearInterval(poll);
      resolve({ wall: Number(process.hrtime.bigint() - start) / 1e6, rss: peakKb ? peakKb / 1024 : null, cpu: null, stdout });
    });
  });
}

async function best(times, command, args) {
  const runs = [];
  for (let i = 0; i < times; i++) runs.push(await measure(command, args));
  runs.sort((a, b) => a.wall - b.wall);
  const median = runs[Math.floor(runs.length / 2)];
  const cpus = runs.map((r) => r.cpu).filter((c) => c !== null).sort((a, b) => a - b);
  return { ...median, cpu: cpus.length ? cpus[Math.floor(cpus.length / 2)] : null, rss: Math.max(...runs.map((r) => r.rss ?? 0)) || null };
}

function fetchRealCodebase() {
  const dir = path.join(os.tmpdir(), `trajaudit-bench-${realPackage.replace(/[@/]/g, '-')}`);
  const src = path.join(dir, 'package/src');
  if (existsSync(src)) return src;
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync('npm', ['pack', realPackage, '--pack-destination', dir, '--silent'], { encoding: 'utf8' });
  const tarball = pack.stdout.trim().split('\n').at(-1);
  if (pack.status !== 0 || !tarball) return undefined;
  if (spawnSync('tar', ['xzf', path.join(dir, tarball), '-C', dir]).status !== 0) return undefined;
  return existsSync(src) ? src : undefined;
}

function countLines(dir) {
  const run = spawnSync('sh', ['-c', `find "${dir}" -name '*.ts' -not -path '*/node_modules/*' | xargs cat | wc -l`], { encoding: 'utf8' });
  return Number(run.stdout.trim());
}

const rows = [];
const row = (corpus, tool, r, note = '') =>
  rows.push({
    corpus,
    tool,
    wall: `${(r.wall / 1000).toFixed(2)} s`,
    cpu: r.cpu === null ? 'n/a' : `${r.cpu.toFixed(2)} s`,
    rss: r.rss ? `${r.rss.toFixed(0)} MB` : 'n/a',
    note,
  });
const summaryOf = (stdout) => stdout.trimEnd().split('\n').at(-1);

async function benchTree(label, dir) {
  const files = spawnSync('sh', ['-c', `find "${dir}" -name '*.ts' | wc -l`], { encoding: 'utf8' }).stdout.trim();
  const corpus = `${label} (${files} files, ${countLines(dir).toLocaleString('en')} lines)`;
  const syntactic = await best(3, process.execPath, [cli, 'check', dir]);
  row(corpus, 'trajaudit check', syntactic, summaryOf(syntactic.stdout));
  const typed = await best(1, process.execPath, [cli, 'check', dir, '--types']);
  row(corpus, 'trajaudit check --types', typed, summaryOf(typed.stdout));
  const bare = await best(1, process.execPath, [path.join(repo, 'bench/check-bare-parse.mjs'), dir]);
  row(corpus, 'bare ts.createSourceFile walk', bare, bare.stdout.trim());
  if (hasRipgrep) {
    const rg = await best(3, 'rg', ['-c', '--no-messages', '-g', '*.ts', 'sendMessageStream', dir]);
    const hits = rg.stdout.trim() ? rg.stdout.trim().split('\n').reduce((sum, line) => sum + Number(line.split(':').at(-1)), 0) : 0;
    row(corpus, 'rg -c sendMessageStream', rg, `${hits} matching lines (comments and strings included)`);
  } else {
    rows.push({ corpus, tool: 'ripgrep', wall: 'n/a', cpu: 'n/a', rss: 'n/a', note: 'rg not installed' });
  }
  return { syntactic, typed };
}

const tree = mkdtempSync(path.join(os.tmpdir(), 'trajaudit-check-bench-'));
try {
  generateCorpus(tree, 2000);
  const generated = await benchTree('generated', tree);
  const real = fetchRealCodebase();
  if (real) await benchTree(`${realPackage} src/`, real);
  else rows.push({ corpus: realPackage, tool: '-', wall: 'n/a', cpu: 'n/a', rss: 'n/a', note: 'npm pack failed (offline?)' });
  const help = await best(5, process.execPath, [cli, 'check', '--help']);
  row('-', 'trajaudit check --help', help, 'start-up');

  const headers = ['corpus', 'tool', 'wall (median)', 'CPU user+sys', 'peak RSS', 'note'];
  const keys = ['corpus', 'tool', 'wall', 'cpu', 'rss', 'note'];
  console.log(`| ${headers.join(' | ')} |\n|${headers.map(() => ' --- ').join('|')}|`);
  for (const r of rows) console.log(`| ${keys.map((k) => r[k]).join(' | ')} |`);
  const verdict = (ok) => (ok ? 'ok' : 'MISSED');
  console.log(
    `\ntargets (generated tree): syntactic ≤ 1.5 s: ${verdict(generated.syntactic.wall <= 1500)}; ≤ 200 MB: ${verdict((generated.syntactic.rss ?? 0) <= 200)}; ` +
      `--types ≤ 12 s: ${verdict(generated.typed.wall <= 12000)}; check --help < 150 ms: ${verdict(help.wall < 150)}` +
      `\nmachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, node ${process.version}`,
  );
} finally {
  rmSync(tree, { recursive: true, force: true });
}
