#!/usr/bin/env node
// Malformed-line bench (issue 24): a home whose events.jsonl files carry malformed lines (made by
// bench/gen-home.mjs --bad-lines-per-mib 7: ~0.2 % of lines) against the same files without them,
// each `load`ed into a fresh --db, in turn (bad, clean, bad, clean…), pair by pair. The clean twin
// is the home with every events.jsonl line that JSON.parse rejects removed, nothing else changed
// (made beside the home as DIR-without-malformed, reused while its marker says it was made from
// this home's manifest). Prints the median wall of each and the median of the pair ratios.
//   node bench/malformed-bench.mjs --home DIR [--repeat 3] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fail, parseArgs } from './lib/args.mjs';
import { runMeasured } from './lib/measure.mjs';

const args = parseArgs(process.argv.slice(2), {
  home: { type: 'string', required: true },
  repeat: { type: 'number', default: 3 },
  json: { type: 'boolean' },
});
if (!(args.repeat >= 1)) fail('--repeat must be at least 1');

const repo = path.dirname(import.meta.dirname);
const cli = path.join(repo, 'dist', 'cli.js');
if (!fs.existsSync(cli)) fail(`${cli} not found; build first (npm run build)`);
const home = path.resolve(args.home);
const manifestPath = `${home}.manifest.json`;
if (!fs.existsSync(manifestPath)) fail(`${manifestPath} not found: make the home with bench/gen-home.mjs`);
const log = (line) => {
  if (!args.json) process.stderr.write(`${line}\n`);
};

/** Its lines that JSON.parse rejects, dropped; blank lines and a last line without a newline kept as they are. */
function withoutMalformed(text) {
  const lines = text.split('\n');
  const kept = lines.filter((line, i) => {
    if (line.trim() === '' || (i === lines.length - 1 && line === '')) return true;
    try {
      JSON.parse(line);
      return true;
    } catch {
      return false;
    }
  });
  return { text: kept.join('\n'), dropped: lines.length - kept.length };
}

/** The clean twin of `home`: a copy whose events.jsonl files lack their malformed lines. */
function cleanTwin() {
  const twin = `${home}-without-malformed`;
  const marker = path.join(twin, '.made-from');
  const source = fs.readFileSync(manifestPath, 'utf8');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === source) return { twin, dropped: null };
  fs.rmSync(twin, { recursive: true, force: true });
  fs.cpSync(home, twin, { recursive: true });
  let dropped = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name === 'events.jsonl') {
        const clean = withoutMalformed(fs.readFileSync(file, 'utf8'));
        fs.writeFileSync(file, clean.text);
        dropped += clean.dropped;
      }
    }
  };
  walk(twin);
  fs.writeFileSync(marker, source);
  return { twin, dropped };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trajaudit-malformed-bench-'));
const { twin, dropped } = cleanTwin();
log(`${home}: ${JSON.parse(fs.readFileSync(manifestPath, 'utf8')).events.malformed} malformed events.jsonl lines; clean twin ${twin}${dropped === null ? ' (reused)' : ` (${dropped} lines dropped)`}`);

async function load(dir, name) {
  const db = path.join(work, `${name}.duckdb`);
  fs.rmSync(db, { force: true });
  const run = await runMeasured(process.execPath, [cli, 'load', dir, '--db', db, '--quiet', '--format', 'json'], { cwd: repo });
  // Exit 1: the load completed and some lines could not be read (the bad home's, by design).
  if (run.exitCode !== 0 && run.exitCode !== 1) fail(`load ${dir} failed (exit ${run.exitCode}): ${run.stderr.trim().split('\n')[0]}`);
  const summary = JSON.parse(run.stdout)[0];
  return { wall: run.wallSeconds, peakRssMiB: run.peakRssKiB / 1024, malformed: summary.malformed_lines };
}

const pairs = [];
try {
  for (let k = 0; k < args.repeat; k++) {
    const bad = await load(home, 'bad');
    const clean = await load(twin, 'clean');
    log(`round ${k + 1}/${args.repeat}: ${bad.wall.toFixed(2)} s against ${clean.wall.toFixed(2)} s (${(bad.wall / clean.wall).toFixed(3)}×)`);
    pairs.push({ bad, clean, ratio: bad.wall / clean.wall });
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const result = {
  home, twin, repeat: args.repeat,
  malformedLines: { bad: pairs[0].bad.malformed, clean: pairs[0].clean.malformed },
  badSeconds: median(pairs.map((p) => p.bad.wall)),
  cleanSeconds: median(pairs.map((p) => p.clean.wall)),
  ratio: median(pairs.map((p) => p.ratio)),
  pairs,
};
if (args.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
else {
  process.stdout.write(`load with malformed lines (${result.malformedLines.bad} reported) ${result.badSeconds.toFixed(2)} s against the same files without them (${result.malformedLines.clean} reported) ${result.cleanSeconds.toFixed(2)} s: ${result.ratio.toFixed(3)}× (median of ${args.repeat} pairs; target ≤ 1.1×)\n`);
}
