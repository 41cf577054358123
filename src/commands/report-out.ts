// How `report --out` writes: a file whole or not at all, and a stream as a stream.
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';

/**
 * The descriptor an --out names (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), or null.
 * It stands for whatever that is open on, also a file (`/dev/stdout` redirected to one is still
 * stdout), and is written through the descriptor: a socket cannot be opened by such a name.
 */
export function descriptorOf(out: string): number | null {
  const named = /^\/dev\/(stdout|stderr)$|^\/dev\/fd\/(\d+)$|^\/proc\/(?:self|(\d+))\/fd\/(\d+)$/.exec(path.resolve(out));
  if (!named || (named[3] !== undefined && Number(named[3]) !== process.pid)) return null;
  if (named[1]) return named[1] === 'stdout' ? 1 : 2;
  return Number(named[2] ?? named[4]);
}

/**
 * An --out that is no file to put charts beside: a descriptor's name, or what exists there and is
 * neither a regular file nor a directory (a terminal, a FIFO, a socket, a device). Charts
 * "beside" /dev/stdout were written into /dev.
 */
export function isStream(out: string): boolean {
  if (descriptorOf(out) !== null) return true;
  try {
    const stats = fs.statSync(out);
    return !stats.isFile() && !stats.isDirectory();
  } catch {
    return false; // a new file
  }
}

/** A stream takes the text as it comes: there is nothing to replace, and nothing to rename over it. */
export function writeStream(out: string, text: string): void {
  try {
    fs.writeFileSync(descriptorOf(out) ?? out, text);
  } catch (error) {
    throw cannotWrite(out, error);
  }
}

/**
 * The file is replaced whole or left as it was: the text goes to a temp file beside it, renamed
 * over it once complete. Written in place, a full disk (ENOSPC) or a file-size limit (EFBIG) cut
 * the report short and left that. A link named as --out is followed, never replaced by a file.
 */
export function writeWhole(file: string, text: string): void {
  const target = realPathOr(file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  let fd: number;
  try {
    // The mode of a file already there carries over to its new content.
    fd = fs.openSync(temp, 'wx', modeOf(target));
  } catch (error) {
    // A directory this user may not add to, holding a file they may write: in place, as before.
    if (['EACCES', 'EPERM'].includes(codeOf(error) ?? '')) return writeStream(file, text);
    throw cannotWrite(file, error);
  }
  try {
    try {
      fs.writeFileSync(fd, text);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw cannotWrite(file, error);
  }
}

function realPathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function modeOf(file: string): number {
  try {
    return fs.statSync(file).mode & 0o7777;
  } catch {
    return 0o666;
  }
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function cannotWrite(file: string, error: unknown): InputError {
  return new InputError(`cannot write ${file}: ${codeOf(error) ?? (error as Error).message}; check --out`);
}
