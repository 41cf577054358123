import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { InputError } from '../errors.js';
import { enclosingRepoTop } from './repo-top.js';
import { type Tracked, trackedUnder } from './tracked-files.js';

export interface DiscoveredFile {
  /** Relative to the root, `/`-separated. */
  file: string;
  absPath: string;
  isTest: boolean;
}

/** A file or directory the walk found but cannot hand to the rules, with why and what to do. */
export interface UncheckedEntry {
  file: string;
  reason: string;
  /** What the error said, shown after the reason. */
  detail?: string;
  advice: string;
  /** The path percent-encoded from its bytes, for a name that is not UTF-8 (`file` shows it with `\\xHH` escapes). */
  uriPath?: string;
}

export interface Discovery {
  files: DiscoveredFile[];
  unchecked: UncheckedEntry[];
  /** Lines for stderr that do not fail the run (git would not say which ignored files are committed). */
  warnings: string[];
}

const sourceExtension = /\.(ts|tsx|mts|cts)$/;
// Declaration files hold no calls or constructions; they would only slow the prefilter down.
const declarationFile = /\.d\.(ts|mts|cts)$|\.d\.[^/]+\.ts$/;

interface GitignoreLayer {
  /** The path git matches this layer's patterns against: relative to the directory holding the ignore file. */
  local: (rel: string) => string;
  rules: Ignore;
}

/** Throws the input error for a root that is missing or not a directory (before its config is looked for in it). */
export function assertCheckRoot(root: string): void {
  let stat;
  try {
    stat = statSync(path.resolve(root));
  } catch {
    throw new InputError(`check root not found: ${root}; pass an existing directory`);
  }
  if (!stat.isDirectory()) throw new InputError(`check root is not a directory: ${root}`);
}

/** `.ts/.tsx/.mts/.cts` files under root, honoring the enclosing repository's ignore files, every `.gitignore` on the way down, and the config's `exclude`. */
export function discoverSourceFiles(root: string, exclude: string[], tests: string[]): Discovery {
  assertCheckRoot(root);
  const absRoot = path.resolve(root);
  const isExcluded = picomatch(exclude, { dot: true });
  const isTest = picomatch(tests, { dot: true });
  const found: DiscoveredFile[] = [];
  const unchecked: UncheckedEntry[] = [];
  // The repository is looked for where git finds it: from the directory a linked root leads to.
  const realRoot = realpathSync.native(absRoot);
  const top = enclosingRepoTop(realRoot);
  let tracked: Tracked | undefined;
  const isTracked = (rel: string, isDir: boolean) => {
    if (top === undefined) return false;
    tracked ??= trackedUnder(realRoot);
    return isDir ? tracked.dirs.has(rel) : tracked.files.has(rel);
  };
  walk(absRoot, '', enclosingRepoLayers(realRoot), { root, isExcluded, isTest, isTracked, found, unchecked });
  // Not an error: git refusing another owner's checkout is common in CI containers, and the files
  // the ignore files leave are checked all the same. But the committed ones they match are not.
  const warnings = tracked?.refused ? [gitRefusedWarning(top!, tracked.refused)] : [];
  return { files: found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)), unchecked, warnings };
}

// Git names the work tree by its real path, and safe.directory matches only that one.
function gitRefusedWarning(top: string, reason: string): string {
  return (
    `git would not list the committed files of ${top} (git: ${reason}): files an ignore pattern matches are not checked, committed or not; ` +
    `let git read the work tree (for "dubious ownership": git config --global --add safe.directory ${top})`
  );
}

interface WalkState {
  root: string;
  isExcluded: (p: string) => boolean;
  /** A file git tracks, or a directory holding one: what git ignores never covers it. */
  isTracked: (rel: string, isDir: boolean) => boolean;
  isTest: (p: string) => boolean;
  found: DiscoveredFile[];
  unchecked: UncheckedEntry[];
}

/** Why a file or directory cannot be read, as its errno says (EACCES: a root-owned or 0700 directory in the checkout); anything else is rethrown. */
export function unreadable(file: string, error: unknown): UncheckedEntry {
  return { file, reason: `cannot be read: ${errnoText(error)}`, advice: 'fix its permissions, or exclude it in the config' };
}

function errnoText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (!code) throw error;
  return code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code;
}

/**
 * A name that is not UTF-8, with its bytes beyond ASCII shown as \xHH (and `\` as `\\`): decoded
 * with U+FFFD it names no file that can be opened, and two such names would print as one.
 */
function escapedName(name: Buffer): string {
  return [...name].map((b) => (b === 0x5c ? '\\\\' : b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** A name's bytes as a URI segment: ASCII as encodeURIComponent gives it, every other byte as %HH. */
function percentEncoded(name: Buffer): string {
  return [...name].map((b) => (b < 0x80 ? encodeURIComponent(String.fromCharCode(b)) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

function walk(absDir: string, relDir: string, layers: GitignoreLayer[], state: WalkState): void {
  const here = readGitignore(absDir, relDir);
  const active = here ? [...layers, here] : layers;
  let listed: Dirent<Buffer>[];
  try {
    // Names as bytes: a name that is not UTF-8 is told apart from one that is, not read as U+FFFD.
    listed = readdirSync(absDir, { withFileTypes: true, encoding: 'buffer' });
  } catch (error) {
    if (!relDir) throw new InputError(`cannot read check root ${state.root}: ${errnoText(error)}; fix its permissions`);
    state.unchecked.push(unreadable(`${relDir}/`, error));
    return;
  }
  const entries = listed.map((entry) => ({ entry, name: entry.name.toString('utf8') })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const { entry, name } of entries) {
    if (name === 'node_modules' || name === '.git') continue;
    const rel = relDir ? `${relDir}/${name}` : name;
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    if (ignoredByGit(rel, isDir, active) && !state.isTracked(rel, isDir)) continue;
    const isSource = !isDir && sourceExtension.test(name) && !declarationFile.test(name);
    if (isDir ? state.isExcluded(`${rel}/`) || state.isExcluded(`${rel}/x`) : !isSource || state.isExcluded(rel)) continue;
    if (!Buffer.from(name).equals(entry.name)) {
      const shown = relDir ? `${relDir}/${escapedName(entry.name)}` : escapedName(entry.name);
      const uriPath = [...(relDir ? relDir.split('/').map(encodeURIComponent) : []), percentEncoded(entry.name)].join('/');
      state.unchecked.push({
        file: isDir ? `${shown}/` : shown,
        reason: 'its name is not UTF-8, which TypeScript cannot open',
        advice: 'rename it, or exclude it in the config',
        uriPath: isDir ? `${uriPath}/` : uriPath,
      });
    } else if (isDir) walk(path.join(absDir, name), rel, active, state);
    else state.found.push({ file: rel, absPath: path.join(absDir, name), isTest: state.isTest(rel) });
  }
}

function readGitignore(absDir: string, relDir: string): GitignoreLayer | undefined {
  const rules = readIgnoreFile(path.join(absDir, '.gitignore'));
  return rules && { local: (rel) => (relDir ? rel.slice(relDir.length + 1) : rel), rules };
}

function readIgnoreFile(file: string): Ignore | undefined {
  try {
    return ignore().add(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The ignore files git applies to the root from above it, outermost first: when the root lies
 * inside a git work tree (`check packages/agent` in a monorepo), `.git/info/exclude` and every
 * `.gitignore` from the work tree's top level down to the root's parent, as `git ls-files
 * --exclude-standard` does. Outside a work tree, none. (A `.git` file — a linked worktree or a
 * submodule — marks the top too; its `info/exclude` lives elsewhere and is not read.)
 */
function enclosingRepoLayers(absRoot: string): GitignoreLayer[] {
  // absRoot is a real path (no link on it), as the top found from it is.
  const top = enclosingRepoTop(absRoot);
  if (top === undefined) return [];
  const layers: GitignoreLayer[] = [];
  const exclude = readIgnoreFile(path.join(top, '.git', 'info', 'exclude'));
  const fromTop = (rel: string) => path.relative(top, path.join(absRoot, rel)).split(path.sep).join('/');
  if (exclude) layers.push({ local: fromTop, rules: exclude });
  // The root's own .gitignore is read by the walk; these are its ancestors', top first.
  const above: string[] = [];
  for (let dir = absRoot; dir !== top; ) {
    dir = path.dirname(dir);
    above.unshift(dir);
  }
  for (const ancestor of above) {
    const rules = readIgnoreFile(path.join(ancestor, '.gitignore'));
    if (rules) layers.push({ local: (rel) => path.relative(ancestor, path.join(absRoot, rel)).split(path.sep).join('/'), rules });
  }
  return layers;
}

// As git: a deeper ignore file overrides a shallower one, and within one file the last matching
// pattern decides, so `!keep.ts` below re-includes what `*.ts` above excluded (unless a parent
// directory is itself excluded: the walk never enters it, and `ignore` checks parents).
function ignoredByGit(rel: string, isDir: boolean, layers: GitignoreLayer[]): boolean {
  let ignored = false;
  for (const layer of layers) {
    const local = layer.local(rel);
    const verdict = layer.rules.test(isDir ? `${local}/` : local);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}
