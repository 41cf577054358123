import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from './typescript.cjs';

/**
 * Whether an import specifier may name the scanned tree's own files rather than an installed
 * package: relative and absolute paths; aliases (`#…` subpath imports, `~/…`, `@/…`, tsconfig
 * `paths`, a `baseUrl` entry); and the tree's own workspace packages (a `package.json` under the
 * root with that name). Anything else (`zod`, `hono/streaming`, `node:fs`) is a package: its
 * functions are not the tree's declarations of the same name. Answers are memoized; the file
 * system is only asked about the few specifiers a candidate call was imported from.
 */
export class OwnModules {
  private readonly answers = new Map<string, boolean>();
  private readonly tsconfigs = new Map<string, Aliases>();
  private workspaces?: Set<string>;

  constructor(
    private readonly root: string,
    /** Directories of the scanned files, relative to the root: where workspace package.json files sit. */
    private readonly directories: () => Iterable<string>,
  ) {}

  isOwn(specifier: string, fromFile: string): boolean {
    if (/^\.{0,2}(\/|$)/.test(specifier) || path.isAbsolute(specifier) || /^(#|~|@\/)/.test(specifier)) return true;
    if (specifier.startsWith('node:')) return false;
    const dir = path.dirname(fromFile);
    const key = `${dir}\0${specifier}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.isAlias(specifier, dir) || this.workspaceNames().has(packageName(specifier));
      this.answers.set(key, answer);
    }
    return answer;
  }

  private isAlias(specifier: string, dir: string): boolean {
    const aliases = this.aliasesFor(dir);
    if (aliases.patterns.some((pattern) => matchesPattern(pattern, specifier))) return true;
    if (aliases.baseUrl === undefined) return false;
    const first = path.join(aliases.baseUrl, specifier.split('/')[0]);
    return ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.d.ts'].some((ext) => existsSync(first + ext));
  }

  /** The `paths` and `baseUrl` of the nearest tsconfig.json between `dir` and the root. */
  private aliasesFor(dir: string): Aliases {
    const cached = this.tsconfigs.get(dir);
    if (cached) return cached;
    const configPath = path.join(dir, 'tsconfig.json');
    const parent = path.dirname(dir);
    const aliases = existsSync(configPath)
      ? readAliases(configPath, 0)
      : dir === this.root || parent === dir || !dir.startsWith(this.root)
        ? { patterns: [] }
        : this.aliasesFor(parent);
    this.tsconfigs.set(dir, aliases);
    return aliases;
  }

  private workspaceNames(): Set<string> {
    if (this.workspaces) return this.workspaces;
    const names = new Set<string>();
    const seen = new Set<string>();
    for (const relative of this.directories()) {
      for (let dir = path.join(this.root, relative); !seen.has(dir); dir = path.dirname(dir)) {
        seen.add(dir);
        const name = packageJsonName(path.join(dir, 'package.json'));
        if (name) names.add(name);
        if (dir === this.root || !dir.startsWith(this.root)) break;
      }
    }
    this.workspaces = names;
    return names;
  }
}

interface Aliases {
  patterns: string[];
  baseUrl?: string;
}

/** `paths` keys and `baseUrl`, through relative `extends`; an unreadable config has none (the type pass reports it). */
function readAliases(configPath: string, depth: number): Aliases {
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  const config = read.config as { extends?: unknown; compilerOptions?: { paths?: unknown; baseUrl?: unknown } } | undefined;
  if (read.error || !config || typeof config !== 'object') return { patterns: [] };
  const dir = path.dirname(configPath);
  const aliases: Aliases = { patterns: [] };
  const bases = typeof config.extends === 'string' ? [config.extends] : Array.isArray(config.extends) ? config.extends : [];
  for (const base of bases) {
    if (typeof base !== 'string' || !/^\.{1,2}\//.test(base) || depth >= 5) continue;
    const basePath = path.resolve(dir, base.endsWith('.json') ? base : `${base}.json`);
    if (!existsSync(basePath)) continue;
    const inherited = readAliases(basePath, depth + 1);
    aliases.patterns.push(...inherited.patterns);
    aliases.baseUrl = inherited.baseUrl ?? aliases.baseUrl;
  }
  const options = config.compilerOptions;
  if (options && typeof options.paths === 'object' && options.paths !== null) aliases.patterns = Object.keys(options.paths);
  if (options && typeof options.baseUrl === 'string') aliases.baseUrl = path.resolve(dir, options.baseUrl);
  return aliases;
}

function matchesPattern(pattern: string, specifier: string): boolean {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === specifier;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  return specifier.length >= prefix.length + suffix.length && specifier.startsWith(prefix) && specifier.endsWith(suffix);
}

/** `@scope/name` or `name`, without the subpath. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function packageJsonName(file: string): string | undefined {
  try {
    const name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
