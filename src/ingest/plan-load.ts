// Step 2 of a load: each named file's plan (planFile) against what the database holds, and the
// files a --since/--until window leaves unread. Reads file heads and stats; writes nothing.
import fs from 'node:fs';
import path from 'node:path';
import type { DiscoveredInputs, SkippedInput, SourceFile } from '../discover/discover-inputs.js';
import { vanished } from '../discover/entries.js';
import { unreadableReason } from '../discover/unreadable.js';
import { adapters } from './adapters/index.js';
import { firstEventTime, lastEventTime } from './first-event-time.js';
import { type FilePlan, type FileStat, planFile, settledStamp } from './plan-file.js';
import { isFile } from './reconcile.js';
import { removedWhileRead } from './removed-while-read.js';
import type { Stored } from './stored-files.js';
import type { Work } from './work.js';

export interface TimeWindow {
  since?: Date;
  until?: Date;
}

export interface IngestSummary {
  files: number;
  loaded: number;
  appended: number;
  reloaded: number;
  unchanged: number;
  outsideWindow: number;
  /** The files the window left unread, with their last write: where the inputs' times lie (input-span.ts). */
  unread: UnreadFile[];
  bytesRead: number;
  malformed: number;
  /** Paths (as stored) of files in the database that are gone from disk; their rows are kept (reconcile.ts). */
  gone: string[];
}

export interface UnreadFile {
  file: SourceFile;
  mtime: Date;
}

/** skipped_inputs.reason of a file a --since/--until window left unread (loadInputs warns of them). */
export const OUTSIDE_WINDOW = 'outside the --since/--until window it was loaded with: not read yet (trajaudit load without a window reads it)';

export interface LoadPlan {
  /** The inputs, with the files the window leaves unread listed as skipped when loading into a file. */
  inputs: DiscoveredInputs;
  /** Small files parsed in Node (warn.log, summaries, heartbeats, task outputs, rewritten ledgers). */
  small: Work[];
  /** Appendable JSONL files (events.jsonl, errors.jsonl, …), read in commit groups. */
  jsonl: Work[];
  /** Counts so far: files, unchanged, outside the window, unread, gone. */
  summary: IngestSummary;
  /** Unchanged files found by their head whose stat stamp is new to the database: [file_id, stamp]. */
  restamp: [number, string][];
}

// Hook events carry the hook-input time, a little before the write that set the file's mtime.
const MTIME_SLACK_MS = 10 * 60 * 1000;

export function planLoad(discovered: DiscoveredInputs, stored: Map<string, Stored>, window: TimeWindow, intoFile: boolean): LoadPlan {
  let inputs = discovered;
  // Files that cannot be opened or read move to the skipped entries with their reason, and
  // everything else is read: a new file is tried by its first byte, a stored one where planFile
  // reads its head and, when it is to be read again, by its first byte. A stored file's rows are kept.
  const unreadable: SkippedInput[] = [];
  const readable = (file: SourceFile, read: () => void): boolean => {
    try {
      read();
      return true;
    } catch (error) {
      const entry = unreadableEntry(file, discovered.root, error);
      if (entry === null) throw removedWhileRead(error, discovered);
      unreadable.push(entry);
      return false;
    }
  };
  // Each file's stat, taken once. A file gone since it was listed is left out as discovery leaves
  // it out (a stored one is then gone); one that cannot be stat'ed or opened is unreadable.
  const now = Date.now();
  const stats = new Map<string, FileStat>();
  inputs = {
    ...inputs,
    files: discovered.files.filter((file) => {
      let stat: fs.Stats | undefined;
      if (!readable(file, () => (stat = statOrGone(file.absPath))) || stat === undefined) return false;
      stats.set(file.absPath, { size: stat.size, mtime: stat.mtime, stamp: settledStamp(stat, now) });
      return stored.has(file.absPath) || readable(file, () => tryRead(file));
    }),
  };
  const summary: IngestSummary = { files: 0, loaded: 0, appended: 0, reloaded: 0, unchanged: 0, outsideWindow: 0, unread: [], bytesRead: 0, malformed: 0, gone: [] };
  // New files the window leaves unread. A --db lists them as skipped, so that the database says
  // it is incomplete (a later query warns) until a load without the window reads them.
  const outside = new Set<string>();
  for (const file of inputs.files) {
    if (stored.has(file.absPath) || !adapters[file.kind].timed) continue;
    const stat = stats.get(file.absPath)!;
    if (outsideWindow(file, stat, window)) {
      outside.add(file.absPath);
      summary.unread.push({ file, mtime: stat.mtime });
    }
  }
  if (intoFile && outside.size > 0) {
    const unread = inputs.files.filter((f) => outside.has(f.absPath)).map((f) => ({ absPath: f.absPath, relPath: f.relPath, reason: OUTSIDE_WINDOW }));
    inputs = { ...inputs, skipped: [...inputs.skipped, ...unread] };
  }
  const named = new Set(inputs.files.map((f) => f.absPath));
  for (const [key, file] of stored) if (!named.has(key) && !isFile(key)) summary.gone.push(file.path);

  const small: Work[] = [];
  const jsonl: Work[] = [];
  const restamp: [number, string][] = [];
  for (const file of inputs.files) {
    const adapter = adapters[file.kind];
    const fileStat = stats.get(file.absPath)!;
    const previous = stored.get(file.absPath);
    if (outside.has(file.absPath)) {
      summary.outsideWindow += 1;
      continue;
    }
    // Rows carry their file's session and sit in its kind's tables: a file whose owner changed
    // (it is reached under another session dir now) is read again as that session's.
    const owned = !previous || (previous.session_id === file.sessionId && previous.kind === file.kind);
    let plan = { action: 'reload' } as FilePlan;
    if (owned && !readable(file, () => (plan = planFile(file.absPath, fileStat, previous, adapter.appendable)))) continue;
    if (plan.action === 'unchanged') {
      summary.unchanged += 1;
      if (fileStat.stamp !== null && fileStat.stamp !== previous!.stat_stamp) restamp.push([previous!.file_id, fileStat.stamp]);
      continue;
    }
    // A file read again that may not have been read above (one shorter than stored is not).
    if (previous && !readable(file, () => tryRead(file))) continue;
    const w: Work = { file, adapter, stat: fileStat, previous, plan };
    (adapter.appendable ? jsonl : small).push(w);
  }
  if (unreadable.length > 0) {
    const left = new Set(unreadable.map((u) => u.relPath));
    inputs = { ...inputs, files: inputs.files.filter((f) => !left.has(f.relPath)), skipped: [...inputs.skipped, ...unreadable] };
  }
  summary.files = inputs.files.length;
  return { inputs, small, jsonl, summary, restamp };
}

/** The entry of a file that cannot be opened or read (permissions, a failing disk), or null for another error. */
function unreadableEntry(file: SourceFile, root: string, error: unknown): SkippedInput | null {
  const reason = unreadableReason(error);
  if (reason === null) return null;
  // Keyed as discovery keys what it skips: its directory's real path and its own name (a link
  // into /proc is listed where it lies).
  const named = path.join(root, ...file.relPath.split('/'));
  const dir = fs.existsSync(path.dirname(named)) ? fs.realpathSync.native(path.dirname(named)) : path.dirname(file.absPath);
  return { absPath: path.join(dir, path.basename(named)), relPath: file.relPath, reason };
}

/** A file's stat; undefined for one removed since discovery listed it (nothing of it to read). */
function statOrGone(absPath: string): fs.Stats | undefined {
  try {
    return fs.statSync(absPath);
  } catch (error) {
    if (vanished(error)) return undefined;
    throw error;
  }
}

/** Reads a new file's first byte: one that cannot be read is found before anything else reads it. */
function tryRead(file: SourceFile): void {
  const fd = fs.openSync(file.absPath, 'r');
  try {
    fs.readSync(fd, Buffer.alloc(1), 0, 1, 0);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whole files that cannot hold rows in a --since/--until window are not read: last written
 * before `since` (by an mtime no earlier than its last record), or first record after `until`
 * (with slack for hook times, see MTIME_SLACK_MS).
 */
function outsideWindow(file: SourceFile, stat: FileStat, window: TimeWindow): boolean {
  if (window.since && stat.mtime.getTime() < window.since.getTime() - MTIME_SLACK_MS) {
    // An mtime before the file's own last record is not the time of its last write (a copy that
    // reset mtimes, a file server whose clock is behind): such a file is read, and so is one whose
    // last record's time cannot be told from its end. A heartbeat is rewritten whole: its mtime is
    // its time.
    if (file.kind === 'heartbeat') return true;
    const last = lastEventTime(file.absPath, file.kind);
    if (last !== null && last.getTime() <= stat.mtime.getTime() + MTIME_SLACK_MS) return true;
  }
  if (!window.until || file.kind === 'heartbeat') return false;
  const first = firstEventTime(file.absPath, file.kind);
  return first !== null && first.getTime() > window.until.getTime() + MTIME_SLACK_MS;
}
