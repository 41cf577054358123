import fs from 'node:fs';
import type { SourceKind } from '../discover/discover-inputs.js';
import { ISO_TIME } from '../db/read-time.js';
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
  return timeOf(match?.[1]);
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
  return timeOf(matches.at(-1)?.[1]);
}

/** A record's time as the load reads it (read-time.ts), or null: JavaScript's Date reads more. */
function timeOf(text: string | undefined): Date | null {
  if (text === undefined || !ISO_TIME.test(text)) return null;
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? null : time;
}
