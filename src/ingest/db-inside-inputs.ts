// Nothing is ever written inside the input tree: a --db file there (and DuckDB's .wal beside it)
// would also be found by the next load as an input it does not read, so sources and
// skipped_inputs would differ from a load into a database kept elsewhere.
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false; // missing, or a file on its path (ENOTDIR): DuckDB's own error says which
  }
}

/**
 * The path with its links resolved, as far as it exists (a new --db file does not yet), a link to
 * a file not made yet included: DuckDB makes the file where the link leads.
 */
export function realPathOf(file: string, hops = 0): string {
  const absolute = path.resolve(file);
  try {
    return fs.realpathSync(absolute);
  } catch {
    if (hops < 40 && isLink(absolute)) return realPathOf(path.resolve(path.dirname(absolute), fs.readlinkSync(absolute)), hops + 1);
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(realPathOf(parent, hops), path.basename(absolute));
  }
}

/** `option` names the file in the message: `--db`, or `--out` for the report and its charts. */
export function refuseDbInsideInputs(db: string, inputPaths: string[], option = '--db'): void {
  const dbReal = realPathOf(db);
  for (const named of inputPaths) {
    const root = realPathOf(named);
    if (dbReal === root || dbReal.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
      throw new InputError(
        `${option} ${db} is inside the input ${named}, and trajaudit never writes inside the data it reads; pass a ${option} path outside ${named}`,
      );
    }
  }
}
