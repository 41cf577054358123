import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { InputError } from '../errors.js';

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
  dir: string;
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

/** `.ts/.tsx/.mts/.cts` files under root, honoring every `.gitignore` on the way down and the config's `exclude`. */
export function discoverSourceFiles(root: string, exclude: string[], tests: string[]): DiscoveredFile[] {
  assertCheckRoot(root);
  const absRoot = path.resolve(root);
  const isExcluded = picomatch(exclude, { dot: true });
  const isTest = picomatch(tests, { dot: true });
  const found: DiscoveredFile[] = [];
  walk(absRoot, '', [], { isExcluded, isTest, found });
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
  let text: string;
  try {
    text = readFileSync(path.join(absDir, '.gitignore'), 'utf8');
  } catch {
    return undefined;
  }
  return { dir: relDir, rules: ignore().add(text) };
}

function ignoredByGit(rel: string, isDir: boolean, layers: GitignoreLayer[]): boolean {
  for (const layer of layers) {
    const local = layer.dir ? rel.slice(layer.dir.length + 1) : rel;
    if (layer.rules.ignores(isDir ? `${local}/` : local)) return true;
  }
  return false;
}
