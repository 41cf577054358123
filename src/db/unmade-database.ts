// A database file DuckDB began and did not finish making: a load killed (kill -9, a power cut) in
// the moment between DuckDB creating the file and writing its headers. Such a file holds nothing,
// and DuckDB refuses it ("exists, but it is not a valid DuckDB database file"), so every later run,
// the load that should complete it included, said the --db is not a database.
import fs from 'node:fs';

/** DuckDB's headers, the main one and two database headers of 4 KiB each, written as it makes a file. */
const HEADERS_BYTES = 3 * 4096;
/** The main header's magic bytes, after its 8-byte checksum. */
const MAGIC = Buffer.from('DUCK', 'latin1');
const MAGIC_OFFSET = 8;

/** A file shorter than DuckDB's headers that is empty or begins as DuckDB begins one: no database was made in it. */
export function isUnmadeDatabase(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size >= HEADERS_BYTES) return false;
    if (stat.size === 0) return true;
    const head = Buffer.alloc(MAGIC.length);
    const fd = fs.openSync(file, 'r');
    try {
      return fs.readSync(fd, head, 0, head.length, MAGIC_OFFSET) === head.length && head.equals(MAGIC);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false; // unreadable: DuckDB's own error says why
  }
}
