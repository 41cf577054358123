import crypto from 'node:crypto';
import fs from 'node:fs';

export const HASH_BLOCK = 4096;

/** sha1 of the bytes [start, end) of a file, at most one block: cheap identity for large files. */
export function hashRange(absPath: string, start: number, end: number): string {
  const from = Math.max(0, start);
  const length = Math.max(0, Math.min(end - from, HASH_BLOCK));
  const buffer = Buffer.alloc(length);
  const fd = fs.openSync(absPath, 'r');
  try {
    fs.readSync(fd, buffer, 0, length, from);
  } finally {
    fs.closeSync(fd);
  }
  return crypto.createHash('sha1').update(buffer).digest('hex');
}

export const headHash = (absPath: string, size: number) => hashRange(absPath, 0, Math.min(size, HASH_BLOCK));
/** The block just before `completeBytes`: proves the part already loaded is still the same. */
export const tailHash = (absPath: string, completeBytes: number) => hashRange(absPath, completeBytes - HASH_BLOCK, completeBytes);
