import fs from 'node:fs';
import type { SourceKind } from '../discover/discover-inputs.js';
import { BOM_BYTES, startsWithBom } from './line-rules.js';

const HEAD = 8192;
/** sid-code's own time text (`Date.toISOString()`), any fraction: the only shape these quick reads trust. */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const TIMESTAMP = /"timestamp":"([^"]+)"/g;
const WARN_HEADER = /^\[([^\]]+)\]/;

/**
 * A record's time as these quick reads take it, or null: only sid-code's own shape, and only a
 * time whose date and time of day read back as written. JavaScript's Date reads more than the load
 * does (it rolls 2026-04-31 over to 1 May, reads `+012026-…` and zone-less times), and a file
 * skipped on such a time would lose its rows in the window without a word; a null has the file read.
 */
function timeOf(text: string | undefined): Date | null {
  if (text === undefined || !UTC_TIME.test(text)) return null;
  const time = new Date(text);
  return !Number.isNaN(time.getTime()) && time.toISOString().slice(0, 19) === text.slice(0, 19) ? time : null;
}

/** The earliest (first: true) or latest time among `texts`; null if any of them cannot be read. */
function extreme(texts: string[], first: boolean): Date | null {
  const times = texts.map(timeOf);
  if (times.length === 0 || times.some((t) => t === null)) return null;
  return (times as Date[]).reduce((a, b) => ((first ? b < a : b > a) ? b : a));
}

/**
 * The time of a file's first record, read from its first 8 KiB (events.jsonl/errors.jsonl: the
 * first line's `"timestamp"`, the earliest if it holds several, warn.log: the `[ISO]` prefix);
 * null when it cannot tell. Records are appended in time order, so a file whose first record is
 * after a window cannot hold rows in it.
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
  const line = head.split('\n')[0] ?? '';
  if (kind === 'warn-log') return timeOf(WARN_HEADER.exec(line)?.[1]);
  return extreme([...line.matchAll(TIMESTAMP)].map((m) => m[1]), true);
}

/**
 * The time of a file's last record, read from its last 8 KiB: the last line's `"timestamp"` (the
 * latest if it holds several: one may be nested in `data`), or the last `[ISO]` record header of a
 * warn.log. Null when it cannot tell: the last line, or the last record's header, starts before
 * those 8 KiB (a long payload, a long stack trace), or its time is not sid-code's.
 */
export function lastEventTime(absPath: string, kind: SourceKind): Date | null {
  if (kind !== 'events' && kind !== 'errors' && kind !== 'warn-log') return null;
  const fd = fs.openSync(absPath, 'r');
  let tail: string;
  let whole: boolean;
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(HEAD, size));
    const length = fs.readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    tail = buffer.toString('utf8', 0, length);
    whole = buffer.length === size;
  } finally {
    fs.closeSync(fd);
  }
  // Lines that start inside the tail: the first piece is cut unless the tail is the whole file.
  const lines = tail.split('\n').slice(whole ? 0 : 1).filter((l) => l.trim() !== '');
  if (kind === 'warn-log') {
    const header = lines.filter((l) => WARN_HEADER.test(l)).at(-1);
    return header === undefined ? null : timeOf(WARN_HEADER.exec(header)?.[1]);
  }
  const last = lines.at(-1);
  return last === undefined ? null : extreme([...last.matchAll(TIMESTAMP)].map((m) => m[1]), false);
}
