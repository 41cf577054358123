import fs from 'node:fs';
import type { SourceKind } from '../discover/discover-inputs.js';
import { BOM_BYTES, startsWithBom } from './line-rules.js';

const HEAD = 8192;

/**
 * The time of a file's first record, read from its first 8 KiB (events.jsonl/errors.jsonl:
 * `"timestamp"`, warn.log: the `[ISO]` prefix); null when it cannot tell. Records are appended
 * in time order, so a file whose first record is after a window cannot hold rows in it.
 */
export function firstEventTime(absPath: string, kind: SourceKind): Date | null {
  const buffer = Buffer.alloc(HEAD);
  const fd = fs.openSync(absPath, 'r');
  let length: number;
  try {
    length = fs.readSync(fd, buffer, 0, HEAD, 0);
  } finally {
    fs.closeSync(fd);
  }
  const head = buffer.toString('utf8', startsWithBom(buffer) ? BOM_BYTES : 0, length);
  const match = kind === 'warn-log' ? /^\[([^\]]+)\]/.exec(head) : /"timestamp":"([^"]+)"/.exec(head.split('\n')[0] ?? '');
  if (!match) return null;
  const time = new Date(match[1]);
  return Number.isNaN(time.getTime()) ? null : time;
}

/**
 * The time of a file's last record, read from its last 8 KiB (the last `"timestamp"` there, or the
 * last `[ISO]` record header of a warn.log); null when it cannot tell.
 */
export function lastEventTime(absPath: string, kind: SourceKind): Date | null {
  if (kind !== 'events' && kind !== 'errors' && kind !== 'warn-log') return null;
  const fd = fs.openSync(absPath, 'r');
  let tail: string;
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(HEAD, size));
    const length = fs.readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    tail = buffer.toString('utf8', 0, length);
  } finally {
    fs.closeSync(fd);
  }
  const matches = [...tail.matchAll(kind === 'warn-log' ? /^\[([^\]]+)\]/gm : /"timestamp":"([^"]+)"/g)];
  const time = matches.length ? new Date(matches[matches.length - 1][1]) : null;
  return time === null || Number.isNaN(time.getTime()) ? null : time;
}
