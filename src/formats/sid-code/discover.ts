// sid-code's layouts (docs/inputs.md#what-a-path-can-be): a home, its trajectories and sessions dirs
// (groups of them by month or year included), session dirs, single session files, tasks dirs, and
// folders made by hand that mix these. Session dirs are this format's: one per session id.
import fs from 'node:fs';
import path from 'node:path';
import type { SessionDir, SourceFile, SourceKind } from '../../discover/discover-inputs.js';
import { entries, linksLast, listing, realOrGone } from '../../discover/entries.js';
import type { DiscoveryWalker, FormatDiscovery, WalkEntry as Entry } from '../../discover/walker.js';

const SESSION_FILES: Record<string, SourceKind> = {
  'events.jsonl': 'events',
  'errors.jsonl': 'errors',
  'warn.log': 'warn-log',
  'session-summary.json': 'session-summary',
  'heartbeat.txt': 'heartbeat',
};
const HOME_FILES: Record<string, SourceKind> = {
  'usage-ledger.jsonl': 'usage-ledger',
  'session-index.jsonl': 'session-index',
};

/** A name trajaudit reads when it is a file. */
const readsByName = (name: string) => name in SESSION_FILES || name in HOME_FILES || name.endsWith('.output');
/**
 * An entry with a session file's name that is no directory: a file, or one trajaudit cannot read
 * (a FIFO, a device, a broken link), which then makes its directory a session whose entry is
 * listed with the reason, rather than a directory said to hold no events.jsonl.
 */
const sessionEntry = (e: Entry) => !e.isDirectory && e.name in SESSION_FILES;
const isSessionDir = (dir: string) => listing(dir).some(sessionEntry);
const hasTaskOutputs = (dir: string) => listing(dir).some((e) => e.isFile && e.name.endsWith('.output'));

/** An entry only a home (or a case folder made like one) has at its top. */
const homeEntry = (e: Entry) => (e.isDirectory && (e.name === 'trajectories' || e.name === 'tasks')) || (e.isFile && e.name in HOME_FILES);

const looksLikeHome = (dir: string) => entries(dir).some(homeEntry);

/**
 * What a directory below a session dir, or in a sessions dir, holds of what trajaudit reads: a
 * home's parts, a session's files, or session dirs (a group, also of groups: by year, then month);
 * null for anything else, and for a directory that cannot be listed, which is then skipped, as it
 * was before it was looked into. Links are not followed, so the walk cannot go round in a loop.
 */
function nestedKind(dir: string): 'home' | 'session' | 'group' | null {
  const list = listing(dir);
  if (list.some(homeEntry)) return 'home';
  if (list.some(sessionEntry)) return 'session';
  const inner = (e: Entry) => e.isDirectory && !e.link && ['session', 'group'].includes(nestedKind(path.join(dir, e.name)) ?? '');
  return list.some(inner) ? 'group' : null;
}

export class SidCodeDiscovery implements FormatDiscovery {
  /** Per directory listed for ownerBeside: its subdirectories by real path. */
  private dirsIn = new Map<string, Map<string, string>>();
  private sessionDirsById = new Map<string, SessionDir>();
  /** Every directory read as each session's (see onePerSession). */
  private copies = new Map<string, SessionDir[]>();
  /** Session dirs read, by real path, with their names; links to session dirs not decided yet. */
  private read = new Map<string, string>();
  private links: string[] = [];
  /** A tasks dir was listed: a census of it is an answer even when it holds no .output file. */
  private tasksDirRead = false;
  constructor(private readonly w: DiscoveryWalker) {}

  readsFileNamed(name: string): boolean {
    return readsByName(name);
  }

  claim(abs: string, isDirectory: boolean): 'usual' | null {
    const base = path.basename(abs);
    if (!isDirectory) return readsByName(base) ? 'usual' : null;
    const found = looksLikeHome(abs) || isSessionDir(abs) || base === 'tasks' || base === 'trajectories'
      || entries(abs).some((e) => e.isDirectory && e.name === 'sessions')
      || entries(abs).some((e) => e.isDirectory && isSessionDir(path.join(abs, e.name))) || nestedKind(abs) === 'group'
      || hasTaskOutputs(abs);
    return found ? 'usual' : null;
  }

  walk(abs: string, isDirectory: boolean): void {
    const base = path.basename(abs);
    if (!isDirectory) {
      if (base in SESSION_FILES) this.w.file(abs, SESSION_FILES[base], path.basename(path.dirname(abs)));
      else if (base in HOME_FILES) this.w.file(abs, HOME_FILES[base], null);
      else this.w.file(abs, 'task-output', null);
      if (base in SESSION_FILES) this.addSessionDir(path.dirname(abs));
      return;
    }
    if (looksLikeHome(abs)) return this.home(abs);
    if (isSessionDir(abs)) return this.sessionDir(abs);
    if (base === 'tasks') return this.tasksDir(abs);
    if (base === 'trajectories' || entries(abs).some((e) => e.isDirectory && e.name === 'sessions')) return this.trajectories(abs);
    // Session dirs before *.output files: a stray build.output in a sessions dir does not make it a tasks dir.
    if (entries(abs).some((e) => e.isDirectory && isSessionDir(path.join(abs, e.name))) || nestedKind(abs) === 'group') return this.sessionsDir(abs);
    return this.tasksDir(abs);
  }

  afterWalks(): void {
    this.linkedSessionDirs();
  }

  keep(files: SourceFile[]): SourceFile[] {
    return this.onePerSession(files);
  }

  sessionDirs(): SessionDir[] {
    return [...this.sessionDirsById.values()];
  }

  emptyIsAnAnswer(): boolean {
    return this.tasksDirRead;
  }

  /**
   * A link in a session dir to the file of the same name in a session dir beside it
   * (`b/events.jsonl` → `../a/events.jsonl`) is that session's file, as a link to a session dir
   * beside it is that session: the name of the dir it lies in, else undefined. Decided by the
   * files on disk alone, so the file has one owner whichever paths a load names.
   */
  ownerBeside(dir: string, name: string): string | undefined {
    const target = realOrGone(path.join(dir, name));
    if (target === null || path.basename(target) !== name) return undefined;
    const parent = path.dirname(dir);
    let dirs = this.dirsIn.get(parent);
    if (!dirs) {
      dirs = new Map();
      let listed: Entry[] = [];
      try {
        listed = entries(parent);
      } catch {
        // a parent that cannot be listed has no session dirs beside this one to own the file
      }
      // Real directories before links to them, as sessionsDir takes them.
      for (const e of listed.filter((d) => d.isDirectory).sort((a, b) => Number(a.link) - Number(b.link))) {
        const real = realOrGone(path.join(parent, e.name));
        if (real !== null && !dirs.has(real)) dirs.set(real, e.name);
      }
      this.dirsIn.set(parent, dirs);
    }
    const owner = dirs.get(path.dirname(target));
    return owner === path.basename(dir) ? undefined : owner;
  }

  sessionDir(dir: string): void {
    const real = realOrGone(dir);
    if (real !== null && !this.read.has(real)) this.read.set(real, path.basename(dir));
    const sessionId = this.addSessionDir(dir);
    const seen = new Map<string, string>();
    for (const e of this.w.list(dir)) {
      const abs = path.join(dir, e.name);
      const owner = e.link && e.isFile && e.name in SESSION_FILES ? this.ownerBeside(dir, e.name) : undefined;
      const nested = e.isDirectory && !e.link ? nestedKind(abs) : null;
      if (owner !== undefined) this.w.skip(abs, `another name for ${e.name} of session directory ${owner}`);
      else if (e.isFile && e.name in SESSION_FILES) this.w.file(abs, SESSION_FILES[e.name], sessionId, e);
      else if (e.isFile && e.name in HOME_FILES) this.w.file(abs, HOME_FILES[e.name], null, e); // a case folder's copy
      // What trajaudit reads is read wherever it sits: a session dir, a group of them or a home
      // copied into a session dir (its own directories, such as tool-outputs/, hold none).
      else if (nested === 'home') this.home(abs);
      else if (nested === 'session') this.sessionDirOnce(abs, e.name, seen);
      else if (nested === 'group') this.sessionsDir(abs);
      // A tasks dir copied into a session dir (sid-code keeps none there) holding only task
      // outputs, which make it no home: read as when the session dir is named alone.
      else if (e.isDirectory && !e.link && e.name === 'tasks') this.tasksDir(abs);
      else this.w.skip(abs, e.isDirectory ? 'directory not read (not a telemetry format)' : 'not a format trajaudit reads');
    }
  }

  /**
   * A session dir among a directory's entries (listed real directories first, see linksLast),
   * unless it is a link to one already taken from that listing (`latest` → a session, or the old
   * name left at a renamed one): another name for that session, not a session of its own.
   * `seen` maps the listing's session dirs, by real path, to their names.
   */
  sessionDirOnce(abs: string, name: string, seen: Map<string, string>): void {
    const real = realOrGone(abs);
    if (real === null) return; // removed since it was listed
    const first = seen.get(real);
    if (first !== undefined) return this.w.skip(abs, `another name for session directory ${first}`);
    seen.set(real, name);
    // A link to a session dir in another listing (`sessions/latest` → `sessions/2026-08/<id>`) is
    // decided once every directory is read (linkedSessionDirs), whichever is listed first.
    if (fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) {
      this.links.push(abs);
      return;
    }
    this.sessionDir(abs);
  }

  /**
   * The links to session dirs, after every real one was read: a link to one read under its own
   * name is another name for it (its session, and what is skipped in it, are that dir's); any
   * other is read as a session dir, once.
   */
  linkedSessionDirs(): void {
    for (const abs of this.links.splice(0)) {
      const real = realOrGone(abs);
      if (real === null) continue;
      const read = this.read.get(real);
      if (read !== undefined) {
        this.w.skip(abs, `another name for session directory ${read}`);
        continue;
      }
      this.sessionDir(abs);
    }
  }

  addSessionDir(dir: string): string {
    const sessionId = path.basename(dir);
    const entry = { sessionId, absPath: dir, relPath: this.w.relDir(dir) };
    this.sessionDirsById.set(sessionId, entry);
    const copies = this.copies.get(sessionId) ?? [];
    if (!copies.some((d) => d.absPath === dir)) this.copies.set(sessionId, [...copies, entry]);
    return sessionId;
  }

  /**
   * One directory per session id. Two in one load (an archive copy in `sessions/2026-08/` beside
   * the live dir, or a copy inside the session dir) would add up their events in one session: the
   * copy nearest the top is read, the others are skipped with the files in them.
   */
  onePerSession(files: SourceFile[]): SourceFile[] {
    const depth = (d: SessionDir) => (d.relPath === '.' ? 0 : d.relPath.split('/').length);
    let kept = files;
    for (const [sessionId, dirs] of this.copies) {
      if (dirs.length < 2) continue;
      const [keep, ...others] = [...dirs].sort((a, b) => depth(a) - depth(b) || (a.relPath < b.relPath ? -1 : 1));
      this.sessionDirsById.set(sessionId, keep);
      for (const other of others) {
        this.w.skip(other.absPath, `another copy of session directory ${keep.relPath}: a session is read once, from the copy nearest the top`);
        kept = kept.filter((f) => f.sessionId !== sessionId || !f.relPath.startsWith(`${other.relPath}/`));
      }
    }
    return kept;
  }

  /**
   * Every directory in a sessions dir is a session's, even one holding nothing trajaudit reads:
   * an upload with deleteAfterUpload leaves only metadata.json and .uploaded, and the session
   * directories on disk are a denominator of their own. It is a `sessions` row with no events.
   */
  sessionsDir(dir: string): void {
    const seen = new Map<string, string>();
    for (const e of linksLast(this.w.list(dir))) {
      const abs = path.join(dir, e.name);
      // A group of session dirs (an archive by month: sessions/2026-08/<session>) is read as a
      // sessions dir; a link is never a group, so no link can lead the walk round in a loop.
      if (e.isDirectory && !e.link && nestedKind(abs) === 'group') this.sessionsDir(abs);
      else if (e.isDirectory) this.sessionDirOnce(abs, e.name, seen);
      else this.w.skip(abs, 'not a session directory');
    }
  }

  tasksDir(dir: string): void {
    this.tasksDirRead = true;
    for (const e of this.w.list(dir)) {
      const abs = path.join(dir, e.name);
      if (e.isFile && e.name.endsWith('.output')) this.w.file(abs, 'task-output', null, e);
      else this.w.skip(abs, 'not a task .output file');
    }
  }

  /**
   * A home, or a folder made by hand that mixes its parts: session dirs beside a ledger, a
   * session's own files beside one, stray task outputs. What trajaudit reads is read wherever it
   * sits, so no session is skipped for being out of place; a real home keeps none of these names
   * at its top (its other directories, such as sessions/ or protocol-violations/, hold no
   * session file), so it reads the same.
   */
  home(dir: string): void {
    const own = isSessionDir(dir) ? this.addSessionDir(dir) : null;
    const seen = new Map<string, string>();
    for (const e of linksLast(this.w.list(dir))) {
      const abs = path.join(dir, e.name);
      if (e.isFile && e.name in HOME_FILES) this.w.file(abs, HOME_FILES[e.name], null, e);
      else if (e.isDirectory && e.name === 'trajectories') this.trajectories(abs);
      else if (e.isDirectory && e.name === 'tasks') this.tasksDir(abs);
      else if (own !== null && e.isFile && e.name in SESSION_FILES) this.w.file(abs, SESSION_FILES[e.name], own, e);
      else if (e.isFile && e.name.endsWith('.output')) this.w.file(abs, 'task-output', null, e);
      else if (e.isDirectory && isSessionDir(abs)) this.sessionDirOnce(abs, e.name, seen);
      else this.w.skip(abs, e.isDirectory ? 'directory not read (no session file in it)' : 'not a format trajaudit reads');
    }
  }

  trajectories(dir: string): void {
    const seen = new Map<string, string>();
    for (const e of linksLast(this.w.list(dir))) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory && e.name === 'sessions') this.sessionsDir(abs);
      else if (e.isDirectory && isSessionDir(abs)) this.sessionDirOnce(abs, e.name, seen);
      else this.w.skip(abs, 'not a format trajaudit reads');
    }
  }
}
