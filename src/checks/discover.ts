import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { InputError } from '../errors.js';
import { enclosingRepoTop } from './repo-top.js';

export interface DiscoveredFile {
  /** Relative to the root, `/`-separated. */
  file: string;
  absPath: string;
  isTest: boolean;
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
export function discoverSourceFiles(root: string, exclude: string[], tests: string[]): DiscoveredFile[] {
  assertCheckRoot(root);
  const absRoot = path.resolve(root);
  const isExcluded = picomatch(exclude, { dot: true });
  const isTest = picomatch(tests, { dot: true });
  const found: DiscoveredFile[] = [];
  walk(absRoot, '', enclosingRepoLayers(absRoot), { isExcluded, isTest, found });
  return found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

interface WalkState {
  isExcluded: (p: string) => boolean;
  isTest: (p: string) => boolean;
  found: DiscoveredFile[];
}

function walk(absDir: string, relDir: string, layers: GitignoreLayer[], state: WalkState): void {
  const here = readGitignore(absDir, relDir);
  const active = here ? [...layers, here] : layers;
  const entries = readdirSync(absDir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    if (ignoredByGit(rel, isDir, active)) continue;
    if (isDir) {
      if (!state.isExcluded(`${rel}/`) && !state.isExcluded(`${rel}/x`)) walk(path.join(absDir, entry.name), rel, active, state);
    } else if (sourceExtension.test(entry.name) && !declarationFile.test(entry.name) && !state.isExcluded(rel)) {
      state.found.push({ file: rel, absPath: path.join(absDir, entry.name), isTest: state.isTest(rel) });
    }
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
