import path from 'node:path';
import { InputError } from '../errors.js';
import { stackOverflow } from './stack-overflow.js';
import ts from './typescript.cjs';

const fallbackOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  allowJs: false,
};

/** How far the program follows imports from the prefiltered roots. */
export const importDepth = 2;

/**
 * A program over the prefiltered roots and what they import, `importDepth` levels deep, instead of
 * the whole transitive closure: on a 2,000-file tree the closure is every file, and parsing plus
 * binding it alone misses the time budget. A receiver whose type lives deeper resolves to an
 * error type, which the rules report as `unresolved`, never as clean.
 */
export function createTypeProgram(root: string, rootNames: string[]): ts.Program {
  const options: ts.CompilerOptions = {
    ...readCompilerOptions(root),
    noEmit: true,
    skipLibCheck: true,
    incremental: false,
    composite: false,
    types: [],
  };
  const host = ts.createCompilerHost(options, true);
  // A file too deep to parse is left out of the program; the engine names it when it parses it.
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (...args) => {
    try {
      return getSourceFile.apply(host, args);
    } catch (error) {
      stackOverflow(error);
      return undefined;
    }
  };
  const cache = ts.createModuleResolutionCache(process.cwd(), (f) => f, options);
  const files = new Set(rootNames);
  let frontier = rootNames;
  for (let depth = 0; depth < importDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const file of frontier) {
      const text = host.readFile(file);
      if (text === undefined) continue;
      for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
        const resolved = ts.resolveModuleName(imported.fileName, file, options, host, cache).resolvedModule?.resolvedFileName;
        if (resolved && !files.has(resolved) && /\.(d\.)?[mc]?tsx?$/.test(resolved)) {
          files.add(resolved);
          next.push(resolved);
        }
      }
    }
    frontier = next;
  }
  return ts.createProgram({ rootNames: [...files], options: { ...options, noResolve: true }, host });
}

function readCompilerOptions(root: string): ts.CompilerOptions {
  const configPath = path.join(path.resolve(root), 'tsconfig.json');
  if (!ts.sys.fileExists(configPath)) return fallbackOptions;
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) {
    throw new InputError(`${configPath}: ${ts.flattenDiagnosticMessageText(read.error.messageText, ' ')}; fix it for --types`);
  }
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configPath), undefined, configPath);
  return { ...parsed.options, declaration: false, sourceMap: false };
}
