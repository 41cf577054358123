// Named paths → the typed files the ingest adapters read. Each agent format claims the paths of
// its layouts and walks them (src/formats/<name>/discover.ts); this is the one ledger of what was
// read and what was skipped, with why.
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { AGENT_FORMATS } from '../formats/registry.js';
import { listing, realOrGone, undecodable, unlistable } from './entries.js';
import type { DiscoveryWalker, FormatDiscovery, WalkEntry } from './walker.js';

/** A kind of file an agent format reads (AgentFormat.kinds): `events`, `claude-transcript`, … */
export type SourceKind = string;

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

const WHAT_TO_PASS =
  'pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript';

type Entry = WalkEntry;

class Collector implements DiscoveryWalker {
  /** Every name each file was reached by, keyed by its real path (see files()). */
  private named = new Map<string, { abs: string; file: SourceFile }[]>();
  skipped = new Map<string, SkippedInput>();
  scopes: string[] = [];
  /** The real path of each directory listed (list), by the path it was listed under. */
  private realDirs = new Map<string, string>();
  constructor(private readonly root: string, private readonly readsFileNamed: (name: string) => boolean) {}

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

  skip(abs: string, reason: string): void {
    const entry = fs.lstatSync(abs, { throwIfNoEntry: false });
    if (entry === undefined && !undecodable.has(abs)) return; // removed since it was listed
    if (entry === undefined) reason = 'its name is not valid UTF-8, so trajaudit cannot open it; rename it';
    else if (unlistable.has(abs)) reason = unlistable.get(abs)!;
    else if (entry.isSymbolicLink() && !fs.existsSync(abs)) reason = 'broken symbolic link';
    // What a link leads to, as for any other entry (`events.jsonl` → /dev/null).
    else if (!isFileOrDirectory(entry.isSymbolicLink() ? fs.statSync(abs) : entry)) reason = 'not a regular file (a FIFO, socket or device)';
    else if (fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() && this.readsFileNamed(path.basename(abs))) reason = 'a directory where trajaudit reads a file of this name';
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

}

const isFileOrDirectory = (stat: fs.Stats) => stat.isFile() || stat.isDirectory();

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

function addNamedPath(c: Collector, discoveries: FormatDiscovery[], named: string): void {
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
  const isDirectory = stat.isDirectory();
  if (!isDirectory && !stat.isFile()) throw new InputError(`${named} is neither a file nor a directory; ${WHAT_TO_PASS}`);
  // The strongest claim walks it: a layout only one format has, then each format's usual ones, then
  // what a format takes only when no other does (any directory of .jsonl files).
  const claims = discoveries.map((d) => d.claim(abs, isDirectory));
  for (const strength of ['first', 'usual', 'last'] as const) {
    const claimant = claims.indexOf(strength);
    if (claimant >= 0) return discoveries[claimant].walk(abs, isDirectory);
  }
  if (!isDirectory) throw new InputError(`${named} is not a file trajaudit reads (events.jsonl, errors.jsonl, warn.log, session-summary.json, heartbeat.txt, usage-ledger.jsonl, session-index.jsonl, tasks/*.output, a Claude Code transcript *.jsonl); ${WHAT_TO_PASS}`);
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
  let discoveries: FormatDiscovery[] = [];
  const c = new Collector(root, (name) => discoveries.some((d) => d.readsFileNamed?.(name) ?? false));
  discoveries = AGENT_FORMATS.map((f) => f.discovery(c));
  for (const named of paths) addNamedPath(c, discoveries, named);
  for (const d of discoveries) d.afterWalks?.();
  let files = c.files();
  for (const d of discoveries) files = d.keep?.(files) ?? files;
  // A tasks dir with no .output in it is clean (HEAD's 7-day sweep, a machine whose tests run
  // isolated): `query test-pollution` reports it as 0 files. Anything else that
  // gives no file is more likely the wrong path than an empty one.
  if (files.length === 0 && !discoveries.some((d) => d.emptyIsAnAnswer?.() ?? false)) {
    const first = [...c.skipped.values()][0];
    const why = first ? ` (${c.skipped.size} ${c.skipped.size === 1 ? 'entry' : 'entries'} skipped, first ${first.relPath}: ${first.reason})` : '';
    throw new InputError(`${paths.join(', ')} ${paths.length === 1 ? 'holds' : 'hold'} no file trajaudit reads${why}; ${WHAT_TO_PASS}`);
  }
  const byPath = <T extends { relPath: string }>(a: T, b: T) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
  return {
    root,
    files: files.sort(byPath),
    sessionDirs: discoveries.flatMap((d) => d.sessionDirs?.() ?? []).sort(byPath),
    skipped: [...c.skipped.values()].sort(byPath),
    scopes: c.scopes,
  };
}
