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

/** How far the program follows imports from the prefiltered roots (re-export-only files not counted). */
export const importDepth = 2;

/** Why the checker may not place a type: said in `unresolved` messages, documented in docs/checks.md#the-type-checker. */
export const typeReach = `for instance its type is any, or is reached through more than ${importDepth} imports from the checked files, not counting re-export-only files`;

/**
 * A program over the prefiltered roots and what they import, `importDepth` levels deep, instead of
 * the whole transitive closure: on a 2,000-file tree the closure is every file, and parsing plus
 * binding it alone misses the time budget. A receiver whose type lives deeper resolves to an
 * error type, which the rules report as `unresolved`, never as clean. A barrel (a file of
 * `export … from` only) costs no level: `index.ts` re-exporting `public.ts` re-exporting the class
 * is one import, as a reader sees it.
 */
export function createTypeProgram(root: string, rootNames: string[], leftOut: ReadonlySet<string> = new Set()): ts.Program {
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
    if (leftOut.has(path.resolve(args[0]))) return undefined;
    try {
      return getSourceFile.apply(host, args);
    } catch (error) {
      stackOverflow(error);
      return undefined;
    }
  };
  const cache = ts.createModuleResolutionCache(process.cwd(), (f) => f, options);
  const files = new Set(rootNames.filter((file) => !leftOut.has(path.resolve(file))));
  let frontier = rootNames;
  const texts = new Map<string, string | undefined>();
  const textOf = (file: string) => {
    if (!texts.has(file)) texts.set(file, host.readFile(file));
    return texts.get(file);
  };
  for (let depth = 0; depth < importDepth && frontier.length > 0; depth++) {
    const next: string[] = [];
    // A barrel joins the level being expanded, so the files it re-exports land one level down.
    const level = [...frontier];
    for (let i = 0; i < level.length; i++) {
      const file = level[i];
      const text = textOf(file);
      if (text === undefined) continue;
      for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
        const resolved = ts.resolveModuleName(imported.fileName, file, options, host, cache).resolvedModule?.resolvedFileName;
        if (resolved && !files.has(resolved) && !leftOut.has(path.resolve(resolved)) && /\.(d\.)?[mc]?tsx?$/.test(resolved)) {
          files.add(resolved);
          (isBarrel(textOf(resolved)) ? level : next).push(resolved);
        }
      }
    }
    frontier = next;
  }
  return ts.createProgram({ rootNames: [...files], options: { ...options, noResolve: true }, host });
}

/** Nesting past this is no hand-written code: such a file is the one left out when binding overflows. */
const BINDER_DEPTH = 1000;

/**
 * The program and its checker. TypeScript's binder recurses once per level of nesting, so a file
 * nested thousands deep (a 10,000-link member chain; tsc overflows on it too) overflows the stack
 * when the checker is made: the files nested past BINDER_DEPTH are then left out, handed to
 * `leftOutFile` (the engine names them as not checked), and the program is made without them.
 */
export function typeCheckedProgram(root: string, rootNames: string[], leftOutFile: (absPath: string) => void): { program: ts.Program; checker: ts.TypeChecker } {
  const program = createTypeProgram(root, rootNames);
  try {
    return { program, checker: program.getTypeChecker() };
  } catch (error) {
    stackOverflow(error);
    const deep = program.getSourceFiles().filter((file) => !file.isDeclarationFile && nestingDepth(file) > BINDER_DEPTH).map((file) => path.resolve(file.fileName));
    if (deep.length === 0) throw error;
    deep.forEach(leftOutFile);
    const without = createTypeProgram(root, rootNames, new Set(deep));
    return { program: without, checker: without.getTypeChecker() };
  }
}

/** How deep the syntax tree goes, walked without recursion. */
function nestingDepth(sourceFile: ts.SourceFile): number {
  let deepest = 0;
  const stack: Array<[ts.Node, number]> = [[sourceFile, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    ts.forEachChild(node, (child) => {
      stack.push([child, depth + 1]);
    });
  }
  return deepest;
}

const reExport = /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*(['"])[^'"\n]*\1\s*;?/g;
const comment = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/** A file of nothing but `export … from` statements (and comments): a barrel. Large files are never one. */
function isBarrel(text: string | undefined): boolean {
  if (text === undefined || text.length > 64 * 1024 || !text.includes('from')) return false;
  const code = text.replace(comment, '');
  const rest = code.replace(reExport, '');
  return rest.trim() === '' && rest.length < code.length;
}

function readCompilerOptions(root: string): ts.CompilerOptions {
  const configPath = path.join(path.resolve(root), 'tsconfig.json');
  if (!ts.sys.fileExists(configPath)) return fallbackOptions;
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  // Parsed again as a source file, not a plain object, so that option errors carry their position.
  const source = ts.readJsonConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw configError(read.error, source);
  const parsed = ts.parseJsonSourceFileConfigFileContent(source, ts.sys, path.dirname(configPath), undefined, configPath);
  // What `tsc -p` refuses (an `extends` it cannot read, an unknown option, a bad value) would
  // otherwise leave the program with partial options and answers nobody asked for. "No inputs
  // found" is the one error that does not matter here: the rules choose the files, not `include`.
  const error = parsed.errors.find((d) => d.category === ts.DiagnosticCategory.Error && d.code !== noInputsFound);
  if (error) throw configError(error, source);
  return { ...parsed.options, declaration: false, sourceMap: false };
}

const noInputsFound = 18003;
const cannotReadFile = 5083;

/**
 * `file:line:column: what (TSnnnn)` at the diagnostic's own position (in a base config for an
 * error there). TypeScript gives an unreadable `extends` target no position: it is put at the
 * config's `extends` value, the line to fix.
 */
function configError(diagnostic: ts.Diagnostic, config: ts.TsConfigSourceFile): InputError {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').replace(/\.$/, '');
  let file: ts.SourceFile | undefined = diagnostic.file;
  let start = diagnostic.start;
  if ((!file || start === undefined) && diagnostic.code === cannotReadFile) {
    file = config;
    start = extendsValue(config)?.getStart(config);
  }
  let where = config.fileName;
  if (file && start !== undefined) {
    const { line, character } = file.getLineAndCharacterOfPosition(start);
    where = `${file.fileName}:${line + 1}:${character + 1}`;
  }
  return new InputError(`${where}: ${text} (TS${diagnostic.code}); fix the tsconfig for --types (tsc -p reports it too)`);
}

function extendsValue(config: ts.TsConfigSourceFile): ts.Expression | undefined {
  const top = config.statements[0]?.expression;
  if (!top || !ts.isObjectLiteralExpression(top)) return undefined;
  const prop = top.properties.find((p) => ts.isPropertyAssignment(p) && ts.isStringLiteral(p.name) && p.name.text === 'extends');
  return prop && ts.isPropertyAssignment(prop) ? prop.initializer : undefined;
}
