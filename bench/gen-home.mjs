#!/usr/bin/env node
// Synthetic sid-code home generator for the ingestion benchmark.
//   node bench/gen-home.mjs --out DIR --size 1GiB [--sessions N] [--seed S] [--bad-lines-per-mib K] [--force]
// --size is the total size of all events.jsonl files (the corpus every contender reads); warn.log,
// errors.jsonl, the ledgers and tasks/ add a few percent on top. Same seed → byte-identical home.
// A manifest with the exact line counts goes to DIR.manifest.json (beside the home, not inside it).
import fs from 'node:fs';
import { fail, formatSize, parseArgs } from './lib/args.mjs';
import { freshOutput } from './lib/corpus.mjs';
import { writeHome } from './lib/home-writer.mjs';

const args = parseArgs(process.argv.slice(2), {
  out: { type: 'string', required: true },
  size: { type: 'size', default: 1024 ** 3 },
  sessions: { type: 'number' },
  seed: { type: 'number', default: 1 },
  'bad-lines-per-mib': { type: 'number', default: 0.1 },
  force: { type: 'boolean' },
  quiet: { type: 'boolean' },
});

const { out, manifestPath } = freshOutput(args.out, args.force, fail);

const started = process.hrtime.bigint();
const manifest = writeHome({
  out,
  size: args.size,
  sessions: args.sessions,
  seed: args.seed,
  badPerMiB: args['bad-lines-per-mib'],
});
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
manifest.generatedSeconds = Number(seconds.toFixed(2));
manifest.home = out;
fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

if (!args.quiet) {
  const e = manifest.events;
  process.stdout.write(
    `generated ${out} (${formatSize(args.size)} of events.jsonl, seed ${args.seed}) in ${seconds.toFixed(1)} s\n` +
      `  ${manifest.sessions} sessions (${manifest.headSessions} HEAD-format, ${manifest.crashedSessions} crashed), ` +
      `${e.lines} event lines: ${e.valid} valid, ${e.malformed} malformed, ${e.blank} blank\n` +
      `  malformed by kind: ${JSON.stringify(e.malformedByKind)}\n` +
      `  manifest: ${manifestPath}\n`,
  );
}
