// Contender (b): the plain Node loop — readline + JSON.parse per line, counting bad lines.
// Runs as its own child process so its peak RSS is its own. Prints one JSON line.
//   node bench/lib/node-loop.mjs <files-list.txt>
import fs from 'node:fs';
import readline from 'node:readline';

const [listFile] = process.argv.slice(2);
const files = fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
const started = process.hrtime.bigint();
let valid = 0;
let malformed = 0;
let blank = 0;
for (const file of files) {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') {
      blank++;
      continue;
    }
    try {
      const value = JSON.parse(line);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) valid++;
      else malformed++;
    } catch {
      malformed++;
    }
  }
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(`${JSON.stringify({ rows: valid, malformed, blank, innerSeconds: seconds })}\n`);
