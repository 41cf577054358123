// A new --db appears whole or not at all: DuckDB makes it under a name of this process's own beside
// it, and a hard link puts it at --db only if nothing is there yet. Loads started at once on a new
// --db used to each decide they had made the file, and the one that lost the lock removed the
// database the winner was writing. No run removes a file at --db it did not make.
import fs from 'node:fs';
import pathModule from 'node:path';
import { trackTempFile, removeTempDir } from '../temp-dirs.js';
import { duckdb } from './duckdb-api.js';
import { isUnmadeDatabase } from './unmade-database.js';

const MAKING = (base: string) => new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.making(\\.wal)?$`);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a run killed (kill -9) while making the database left beside it. */
function removeLeftovers(file: string): void {
  const dir = pathModule.dirname(file);
  const pattern = MAKING(pathModule.basename(file));
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !isAlive(Number(pid))) fs.rmSync(pathModule.join(dir, name), { force: true });
  }
}

/**
 * A file DuckDB began and did not finish making at --db (unmade-database.ts; written so by older
 * versions) is moved aside first, so that a run that makes the database there in the meantime
 * keeps it: what was moved is removed only if it is still unmade, else put back.
 */
function removeUnmade(file: string): void {
  const aside = pathModule.join(pathModule.dirname(file), `.${pathModule.basename(file)}.${process.pid}.making`);
  try {
    fs.renameSync(file, aside);
  } catch {
    return; // another run moved it, or DuckDB's own error will say what is wrong
  }
  if (!isUnmadeDatabase(aside)) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // a third run has made it since: that one stays
    }
  }
  fs.rmSync(aside, { force: true });
}

/** Makes an empty DuckDB database at `file` (the path its links lead to) unless a file is there. */
export async function makeDatabaseFile(file: string, options: Record<string, string>): Promise<void> {
  removeLeftovers(file);
  if (isUnmadeDatabase(file)) removeUnmade(file);
  if (fs.existsSync(file)) return;
  const making = pathModule.join(pathModule.dirname(file), `.${pathModule.basename(file)}.${process.pid}.making`);
  trackTempFile(making);
  trackTempFile(`${making}.wal`);
  try {
    const instance = await duckdb.DuckDBInstance.create(making, options);
    instance.closeSync();
    try {
      fs.linkSync(making, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // EEXIST: another run made it first, and that one is the database.
      // A file system without hard links: a copy that never replaces a file there.
      if (code !== 'EEXIST') fs.copyFileSync(making, file, fs.constants.COPYFILE_EXCL);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    removeTempDir(making);
    removeTempDir(`${making}.wal`);
  }
}
