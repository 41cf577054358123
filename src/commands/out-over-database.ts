// `report --out` never replaces the database it reads: an HTML page over --db (or over its log)
// made every later command refuse the file. Links and hard links to either count as the same file.
import fs from 'node:fs';
import { InputError } from '../errors.js';
import { realPathOf } from '../ingest/db-inside-inputs.js';

function sameFile(a: string, b: string): boolean {
  if (realPathOf(a) === realPathOf(b)) return true;
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false; // one of them does not exist yet: the paths decide
  }
}

export function refuseOutOverDatabase(out: string, db: string | undefined): void {
  if (db === undefined) return;
  const wal = `${realPathOf(db)}.wal`;
  for (const [file, what] of [[db, 'the database'], [wal, "the database's log"]] as const) {
    if (sameFile(out, file)) {
      throw new InputError(`--out ${out} is ${what} (--db ${db}), which the report would overwrite; pass an --out path of its own, e.g. report.md`);
    }
  }
}
