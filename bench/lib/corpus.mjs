// What the contenders read: every trajectories/sessions/*/events.jsonl, plus byte totals for all
// of the home (trajaudit load reads warn.log, errors.jsonl, ledgers and tasks/ too).
import fs from 'node:fs';
import path from 'node:path';

export function eventsFiles(home) {
  const sessions = path.join(home, 'trajectories', 'sessions');
  if (!fs.existsSync(sessions)) throw new Error(`${sessions} does not exist; is ${home} a sid-code home?`);
  const files = [];
  for (const name of fs.readdirSync(sessions).sort()) {
    const file = path.join(sessions, name, 'events.jsonl');
    if (fs.existsSync(file)) files.push(file);
  }
  return files;
}

export function totalBytes(files) {
  let bytes = 0;
  for (const f of files) bytes += fs.statSync(f).size;
  return bytes;
}

/** All regular files under the home, in bytes (what `load` may read, at most). */
export function homeBytes(home) {
  let bytes = 0;
  let files = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) {
        bytes += fs.statSync(p).size;
        files++;
      }
    }
  };
  walk(home);
  return { bytes, files };
}

/** Reads every file once so all contenders start from the same (warm) page cache. */
export function warmCache(files) {
  const buf = Buffer.allocUnsafe(8 << 20);
  for (const f of files) {
    const fd = fs.openSync(f, 'r');
    while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
    fs.closeSync(fd);
  }
}

/**
 * A generator's output dir, emptied when --force says so (refused otherwise when it holds
 * anything), and its manifest's path beside it, removed: the manifest is written last.
 */
export function freshOutput(outArg, force, fail) {
  const out = path.resolve(outArg);
  const manifestPath = `${out}.manifest.json`;
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
    if (!force) fail(`${out} exists and is not empty; pass --force to replace it`);
    fs.rmSync(out, { recursive: true, force: true });
  }
  fs.rmSync(manifestPath, { force: true });
  return { out, manifestPath };
}
