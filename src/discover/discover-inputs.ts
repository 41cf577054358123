// Named paths → the typed files the ingest adapters read. Accepts a sid-code home, a
// trajectories dir, a trajectories/sessions dir, session dirs, single session files and tasks dirs.
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { escapedName } from '../render/file-name.js';
import { AGENT_FORMATS } from '../formats/registry.js';
import { unreadableReason } from './unreadable.js';
import type { DiscoveryWalker, WalkEntry } from './walker.js';

export type SourceKind =
  | 'events' | 'errors' | 'warn-log' | 'session-summary' | 'heartbeat'
  | 'usage-ledger' | 'session-index' | 'task-output'
  | 'claude-transcript' | 'claude-agent-meta';

export interface SourceFile {
  /** The file itself, symbolic links resolved: a home named through a link is the same home. */
  absPath: string;
  /** Relative to the root the user named (forward slashes), as every output shows it. */
  relPath: string;
  kind: SourceKind;
  sessionId: string | null;
}

export interface SessionDir {
  sessionId: string;
  /** The directory as named (not resolved), for its path under a wider root. */
  absPath: string;
  relPath: string;
}

export interface SkippedInput {
  absPath: string;
  relPath: string;
  reason: string;
}

export interface DiscoveredInputs {
  root: string;
  files: SourceFile[];
  sessionDirs: SessionDir[];
  skipped: SkippedInput[];
  /** The directories listed (real paths): what was skipped under them is all of `skipped`. */
  scopes: string[];
}

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
const WHAT_TO_PASS =
  'pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript';

type Entry = WalkEntry;

/** Paths (with escaped names) of the entries whose names are not UTF-8: lstat cannot find them either. */
const undecodable = new Set<string>();

/** Directories that could not be listed (permissions, a failing disk), with the ledger's reason. */
const unlistable = new Map<string, string>();

/** A directory's entries; an error listing it (a named path's) stops the command. */
function entries(dir: string): Entry[] {
  try {
    return readEntries(dir);
  } catch (error) {
    throw new InputError(`cannot read directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? error}; check its permissions`);
  }
}

/** A directory's entries, or none for one that cannot be listed: it is skipped with its reason (see Collector.skip). */
function listing(dir: string): Entry[] {
  try {
    return readEntries(dir);
  } catch (error) {
    if (vanished(error)) return []; // removed since its parent was listed
    const reason = unreadableReason(error);
    if (reason === null) throw error;
    unlistable.set(dir, reason);
    return [];
  }
}

function readEntries(dir: string): Entry[] {
  const dirents = fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  const listed = dirents.map((e) => ({ dirent: e, name: isUtf8(e.name) ? e.name.toString('utf8') : escapedName(e.name) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return listed.map(({ dirent: e, name }) => {
    // A name that is not UTF-8 cannot be opened through a JavaScript string: neither a file nor
    // a directory here, so it is skipped (see Collector.skip).
    if (!isUtf8(e.name)) {
      undecodable.add(path.join(dir, name));
      return { name, isFile: false, isDirectory: false, link: false };
    }
    if (!e.isSymbolicLink()) return { name, isFile: e.isFile(), isDirectory: e.isDirectory(), link: false };
    try {
      const target = fs.statSync(path.join(dir, name));
      return { name, isFile: target.isFile(), isDirectory: target.isDirectory(), link: true };
    } catch {
      return { name, isFile: false, isDirectory: false, link: true }; // a broken link: skipped, and said so
    }
  });
}

/** An entry that was listed a moment ago and is gone now (sid-code prunes and creates sessions as it runs). */
const vanished = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** The real path, or null for an entry gone since it was listed. */
function realOrGone(abs: string): string | null {
  try {
    return fs.realpathSync.native(abs);
  } catch (error) {
    if (vanished(error)) return null;
    throw error;
  }
}

/** Real entries before links (a stable sort), so that a link to a directory beside it is seen as the alias it is. */
const linksLast = (listed: Entry[]) => listed.sort((a, b) => Number(a.link) - Number(b.link));

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

class Collector implements DiscoveryWalker {
  /** Every name each file was reached by, keyed by its real path (see files()). */
  private named = new Map<string, { abs: string; file: SourceFile }[]>();
  /** Per directory listed for ownerBeside: its subdirectories by real path. */
  private dirsIn = new Map<string, Map<string, string>>();
  sessionDirs = new Map<string, SessionDir>();
  /** Every directory read as each session's (see onePerSession). */
  private copies = new Map<string, SessionDir[]>();
  skipped = new Map<string, SkippedInput>();
  /** Session dirs read, by real path, with their names; links to session dirs not decided yet. */
  private read = new Map<string, string>();
  private links: string[] = [];
  scopes: string[] = [];
  /** The real path of each directory listed (list), by the path it was listed under. */
  private realDirs = new Map<string, string>();
  /** A tasks dir was listed: a census of it is an answer even when it holds no .output file. */
  tasksDirRead = false;
  constructor(private readonly root: string) {}

  rel(abs: string): string {
    const relative = path.relative(this.root, abs).split(path.sep).join('/');
    return relative === '' ? path.basename(abs) : relative;
  }

  /**
   * A session dir's path: `.` for the root itself, since its files' paths are relative to it
   * (`events.jsonl`), and a session's path is a prefix of its files' paths under every root.
   */
  relDir(dir: string): string {
    return path.relative(this.root, dir).split(path.sep).join('/') || '.';
  }

  /**
   * A file to read. `listed`: it was an entry of a directory listed just now (list), and not a
   * link, so its real path is its directory's real path and its name (one realpath call less per
   * file, which adds up on an unchanged re-run of a home of thousands of files).
   */
  file(abs: string, kind: SourceKind, sessionId: string | null, listed?: Entry): void {
    try {
      fs.accessSync(abs, fs.constants.R_OK);
    } catch (error) {
      if (vanished(error)) return; // removed since it was listed: nothing of it to read
      const reason = unreadableReason(error);
      if (reason === null) throw error;
      return this.skip(abs, reason);
    }
    const dir = listed && !listed.link ? this.realDirs.get(path.dirname(abs)) : undefined;
    const real = dir === undefined ? realOrGone(abs) : path.join(dir, path.basename(abs));
    if (real === null) return;
    this.named.set(real, [...(this.named.get(real) ?? []), { abs, file: { absPath: real, relPath: this.rel(abs), kind, sessionId } }]);
  }

  /**
   * The files, each once. A file reached by several names is read under its own name (the one
   * that is not a link), else under the first link in path order, whatever order the paths were
   * named in; the others are skipped as names for it (named by session, not by a path that a
   * database's root would rebase). Otherwise a link under another name (`00000000/errors.jsonl`
   * → an incident's `events.jsonl`) sorting first would take the file, with that name's kind and
   * session.
   */
  files(): SourceFile[] {
    const files: SourceFile[] = [];
    const isLink = (abs: string) => fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
    for (const names of this.named.values()) {
      const order = names.map((name) => ({ name, link: names.length > 1 && isLink(name.abs) }));
      order.sort((a, b) => Number(a.link) - Number(b.link) || (a.name.file.relPath < b.name.file.relPath ? -1 : a.name.file.relPath > b.name.file.relPath ? 1 : 0));
      const [first, ...others] = order.map(({ name }) => name);
      files.push(first.file);
      const name = path.basename(first.file.relPath);
      const reason = `another name for ${first.file.sessionId === null ? name : `${name} of session directory ${first.file.sessionId}`}`;
      for (const other of others) if (other.file.relPath !== first.file.relPath) this.skip(other.abs, reason);
    }
    return files;
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

  skip(abs: string, reason: string): void {
    const entry = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (entry === undefined && !undecodable.has(abs)) return; // removed since it was listed
    if (entry === undefined) reason = 'its name is not valid UTF-8, so trajaudit cannot open it; rename it';
    else if (unlistable.has(abs)) reason = unlistable.get(abs)!;
    else if (entry.isSymbolicLink() && !fs.existsSync(abs)) reason = 'broken symbolic link';
    // What a link leads to, as for any other entry (`events.jsonl` → /dev/null).
    else if (!isFileOrDirectory(entry.isSymbolicLink() ? fs.statSync(abs) : entry)) reason = 'not a regular file (a FIFO, socket or device)';
    else if (fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() && readsByName(path.basename(abs))) reason = 'a directory where trajaudit reads a file of this name';
    // Keyed through its directory's real path, as files are: the same entry reached through a
    // linked session dir and directly is one entry.
    const dir = realOrGone(path.dirname(abs));
    if (dir === null) return;
    const key = path.join(dir, path.basename(abs));
    this.skipped.set(key, { absPath: key, relPath: this.rel(abs), reason });
  }

  peek(dir: string): Entry[] {
    return listing(dir);
  }

  /** A directory's entries; what is skipped under it is this load's to replace (`scopes`). */
  list(dir: string): Entry[] {
    const real = realOrGone(dir);
    if (real === null) return [];
    this.scopes.push(real);
    this.realDirs.set(dir, real);
    const listed = listing(dir);
    if (unlistable.has(dir)) this.skip(dir, unlistable.get(dir)!);
    return listed;
  }

  sessionDir(dir: string): void {
    const real = realOrGone(dir);
    if (real !== null && !this.read.has(real)) this.read.set(real, path.basename(dir));
    const sessionId = this.addSessionDir(dir);
    const seen = new Map<string, string>();
    for (const e of this.list(dir)) {
      const abs = path.join(dir, e.name);
      const owner = e.link && e.isFile && e.name in SESSION_FILES ? this.ownerBeside(dir, e.name) : undefined;
      const nested = e.isDirectory && !e.link ? nestedKind(abs) : null;
      if (owner !== undefined) this.skip(abs, `another name for ${e.name} of session directory ${owner}`);
      else if (e.isFile && e.name in SESSION_FILES) this.file(abs, SESSION_FILES[e.name], sessionId, e);
      else if (e.isFile && e.name in HOME_FILES) this.file(abs, HOME_FILES[e.name], null, e); // a case folder's copy
      // What trajaudit reads is read wherever it sits: a session dir, a group of them or a home
      // copied into a session dir (its own directories, such as tool-outputs/, hold none).
      else if (nested === 'home') this.home(abs);
      else if (nested === 'session') this.sessionDirOnce(abs, e.name, seen);
      else if (nested === 'group') this.sessionsDir(abs);
      // A tasks dir copied into a session dir (sid-code keeps none there) holding only task
      // outputs, which make it no home: read as when the session dir is named alone.
      else if (e.isDirectory && !e.link && e.name === 'tasks') this.tasksDir(abs);
      else this.skip(abs, e.isDirectory ? 'directory not read (not a telemetry format)' : 'not a format trajaudit reads');
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
    if (first !== undefined) return this.skip(abs, `another name for session directory ${first}`);
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
        this.skip(abs, `another name for session directory ${read}`);
        continue;
      }
      this.sessionDir(abs);
    }
  }

  addSessionDir(dir: string): string {
    const sessionId = path.basename(dir);
    const entry = { sessionId, absPath: dir, relPath: this.relDir(dir) };
    this.sessionDirs.set(sessionId, entry);
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
      this.sessionDirs.set(sessionId, keep);
      for (const other of others) {
        this.skip(other.absPath, `another copy of session directory ${keep.relPath}: a session is read once, from the copy nearest the top`);
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
    for (const e of linksLast(this.list(dir))) {
      const abs = path.join(dir, e.name);
      // A group of session dirs (an archive by month: sessions/2026-08/<session>) is read as a
      // sessions dir; a link is never a group, so no link can lead the walk round in a loop.
      if (e.isDirectory && !e.link && nestedKind(abs) === 'group') this.sessionsDir(abs);
      else if (e.isDirectory) this.sessionDirOnce(abs, e.name, seen);
      else this.skip(abs, 'not a session directory');
    }
  }

  tasksDir(dir: string): void {
    this.tasksDirRead = true;
    for (const e of this.list(dir)) {
      const abs = path.join(dir, e.name);
      if (e.isFile && e.name.endsWith('.output')) this.file(abs, 'task-output', null, e);
      else this.skip(abs, 'not a task .output file');
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
    for (const e of linksLast(this.list(dir))) {
      const abs = path.join(dir, e.name);
      if (e.isFile && e.name in HOME_FILES) this.file(abs, HOME_FILES[e.name], null, e);
      else if (e.isDirectory && e.name === 'trajectories') this.trajectories(abs);
      else if (e.isDirectory && e.name === 'tasks') this.tasksDir(abs);
      else if (own !== null && e.isFile && e.name in SESSION_FILES) this.file(abs, SESSION_FILES[e.name], own, e);
      else if (e.isFile && e.name.endsWith('.output')) this.file(abs, 'task-output', null, e);
      else if (e.isDirectory && isSessionDir(abs)) this.sessionDirOnce(abs, e.name, seen);
      else this.skip(abs, e.isDirectory ? 'directory not read (no session file in it)' : 'not a format trajaudit reads');
    }
  }

  trajectories(dir: string): void {
    const seen = new Map<string, string>();
    for (const e of linksLast(this.list(dir))) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory && e.name === 'sessions') this.sessionsDir(abs);
      else if (e.isDirectory && isSessionDir(abs)) this.sessionDirOnce(abs, e.name, seen);
      else this.skip(abs, 'not a format trajaudit reads');
    }
  }
}

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

/** An entry only a home (or a case folder made like one) has at its top. */
const homeEntry = (e: Entry) => (e.isDirectory && (e.name === 'trajectories' || e.name === 'tasks')) || (e.isFile && e.name in HOME_FILES);

const isFileOrDirectory = (stat: fs.Stats) => stat.isFile() || stat.isDirectory();

function looksLikeHome(dir: string): boolean {
  return entries(dir).some(homeEntry);
}

/**
 * A named path as the real path it stands for: a home or a session dir named through a link
 * (`~/.sid-code` → elsewhere, `sessions/latest` → a session) is that home or session, with its
 * own name and paths.
 */
function realNamed(named: string): string {
  const abs = path.resolve(named);
  if (!fs.existsSync(abs)) return abs;
  // A link to a file of the same name is that file (of the session dir it lies in); a link to a
  // file of another name keeps its own (its kind comes from it), in its directory resolved.
  if (fs.statSync(abs).isFile()) {
    const real = fs.realpathSync.native(abs);
    return path.basename(real) === path.basename(abs) ? real : path.join(fs.realpathSync.native(path.dirname(abs)), path.basename(abs));
  }
  return fs.realpathSync.native(abs);
}

function addNamedPath(c: Collector, named: string): void {
  const abs = realNamed(named);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EACCES') throw new InputError(`cannot reach path ${named}: permission denied (a directory on its way cannot be entered); check its permissions`);
    if (named.includes('\uFFFD')) throw new InputError(`path ${named} does not exist as written: its name is not valid UTF-8, which trajaudit cannot open; rename it`);
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new InputError(`path ${named} is a symbolic link that leads round in a loop; point it at a sid-code path, or pass that path`);
    if (fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) throw new InputError(`path ${named} is a symbolic link to ${fs.readlinkSync(abs)}, which does not exist; point it at a sid-code path, or pass that path`);
    throw new InputError(`path ${named} does not exist; ${WHAT_TO_PASS}`);
  }
  const base = path.basename(abs);
  const claimed = (when: 'first' | 'last') => AGENT_FORMATS.find((f) => f.claim?.(c, abs, stat.isDirectory()) === when);
  const first = claimed('first');
  if (first) return first.walk!(c, abs, stat.isDirectory());
  if (stat.isFile()) {
    const last = base in SESSION_FILES || base in HOME_FILES || base.endsWith('.output') ? undefined : claimed('last');
    if (last) return last.walk!(c, abs, false);
    if (base in SESSION_FILES) c.file(abs, SESSION_FILES[base], path.basename(path.dirname(abs)));
    else if (base in HOME_FILES) c.file(abs, HOME_FILES[base], null);
    else if (base.endsWith('.output')) c.file(abs, 'task-output', null);
    else throw new InputError(`${named} is not a file trajaudit reads (events.jsonl, errors.jsonl, warn.log, session-summary.json, heartbeat.txt, usage-ledger.jsonl, session-index.jsonl, tasks/*.output, a Claude Code transcript *.jsonl); ${WHAT_TO_PASS}`);
    if (base in SESSION_FILES) c.addSessionDir(path.dirname(abs));
    return;
  }
  if (!stat.isDirectory()) throw new InputError(`${named} is neither a file nor a directory; ${WHAT_TO_PASS}`);
  if (looksLikeHome(abs)) return c.home(abs);
  if (isSessionDir(abs)) return c.sessionDir(abs);
  if (base === 'tasks') return c.tasksDir(abs);
  if (base === 'trajectories' || entries(abs).some((e) => e.isDirectory && e.name === 'sessions')) return c.trajectories(abs);
  // Session dirs before *.output files: a stray build.output in a sessions dir does not make it a tasks dir.
  if (entries(abs).some((e) => e.isDirectory && isSessionDir(path.join(abs, e.name))) || nestedKind(abs) === 'group') return c.sessionsDir(abs);
  if (hasTaskOutputs(abs)) return c.tasksDir(abs);
  const last = claimed('last');
  if (last) return last.walk!(c, abs, true);
  throw new InputError(`${named} holds no agent data (no sid-code events.jsonl, warn.log, errors.jsonl, usage-ledger.jsonl or tasks/*.output, no Claude Code transcript found); ${WHAT_TO_PASS}`);
}

/** The deepest directory that holds every one of `dirs` (absolute paths). */
export function commonDirectory(dirs: string[]): string {
  let root = dirs[0];
  for (const dir of dirs.slice(1)) {
    while (dir !== root && !dir.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) root = path.dirname(root);
  }
  return root;
}

function commonRoot(paths: string[]): string {
  return commonDirectory(paths.map((p) => {
    const abs = realNamed(p);
    return fs.existsSync(abs) && fs.statSync(abs).isFile() ? path.dirname(abs) : abs;
  }));
}

export function discoverInputs(paths: string[]): DiscoveredInputs {
  // path.resolve('') is the current directory: an empty argument (an unset variable) is a mistake.
  if (paths.some((p) => p.trim() === '')) throw new InputError(`an input path is empty (an unset variable?); ${WHAT_TO_PASS}`);
  const root = commonRoot(paths);
  unlistable.clear();
  const c = new Collector(root);
  for (const named of paths) addNamedPath(c, named);
  c.linkedSessionDirs();
  const files = c.onePerSession(c.files());
  // A tasks dir with no .output in it is clean (HEAD's 7-day sweep, a machine whose tests run
  // isolated): `query test-pollution` reports it as 0 files. Anything else that
  // gives no file is more likely the wrong path than an empty one.
  if (files.length === 0 && !c.tasksDirRead) {
    const first = [...c.skipped.values()][0];
    const why = first ? ` (${c.skipped.size} ${c.skipped.size === 1 ? 'entry' : 'entries'} skipped, first ${first.relPath}: ${first.reason})` : '';
    throw new InputError(`${paths.join(', ')} ${paths.length === 1 ? 'holds' : 'hold'} no file trajaudit reads${why}; ${WHAT_TO_PASS}`);
  }
  const byPath = <T extends { relPath: string }>(a: T, b: T) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
  return {
    root,
    files: files.sort(byPath),
    sessionDirs: [...c.sessionDirs.values()].sort(byPath),
    skipped: [...c.skipped.values()].sort(byPath),
    scopes: c.scopes,
  };
}
