import ts from './typescript.cjs';
import { isAsyncGeneratorFunction, isConstDeclaration } from './async-generator-index.js';
import type { CheckContext } from './define-check.js';
import { unwrap, walk } from './syntax.js';

type Verdict = 'yes' | 'no' | 'unknown';

const classesByProgram = new WeakMap<ts.Program, ts.ClassLikeDeclaration[]>();

/**
 * With the checker: do all declarations behind the callee run no code when called? For an
 * interface or abstract member, every implementation found in non-test code decides.
 */
export function resolvesToAsyncGenerators(ctx: CheckContext<unknown>, calleeToken: ts.Node, seen = new Set<ts.Symbol>()): Verdict {
  const checker = ctx.checker!;
  let symbol = checker.getSymbolAtLocation(calleeToken);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declarations = symbol?.declarations ?? [];
  if (!symbol || declarations.length === 0 || seen.has(symbol)) return 'unknown';
  seen.add(symbol);
  const bodies: ts.Node[] = [];
  let aliases = 0;
  for (const declaration of declarations) {
    // A constant that is only another name (`const viaAlias = Turns.stream`) is what it names.
    const named = isConstDeclaration(declaration) && declaration.initializer ? referenceToken(declaration.initializer) : undefined;
    if (named) {
      const verdict = resolvesToAsyncGenerators(ctx, named, seen);
      if (verdict === 'unknown') return 'unknown';
      if (verdict === 'no') bodies.push(declaration);
      else aliases++;
    } else if (isImplementation(declaration)) bodies.push(initializerOf(declaration) ?? declaration);
    else if (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration) || ts.isPropertySignature(declaration)) {
      const implementations = implementationsOf(ctx, declaration);
      // A library's method (Array.prototype.map) whose declared result is no async iterable is no
      // generator, whatever the tree declares under that name.
      if (implementations.length === 0 && declaration.getSourceFile().isDeclarationFile && !mayReturnAsyncIterable(checker, declaration)) {
        bodies.push(declaration);
        continue;
      }
      // A structural type (or an interface nobody in the program implements), or one a file left
      // out of the partial program may implement: let the name index decide.
      if (implementations.length === 0 || mentionedOutsideProgram(ctx, declaration)) return 'unknown';
      bodies.push(...implementations);
    } else {
      bodies.push(declaration);
    }
  }
  if (bodies.length === 0) return aliases > 0 ? 'yes' : 'no';
  return bodies.every(isAsyncGeneratorFunction) ? 'yes' : 'no';
}

/** The name token of an initializer that is only a reference: `f`, `X.m`. */
function referenceToken(initializer: ts.Expression): ts.Node | undefined {
  const value = unwrap(initializer);
  if (ts.isIdentifier(value)) return value;
  if (ts.isPropertyAccessExpression(value)) return value.name;
  return undefined;
}

function mayReturnAsyncIterable(checker: ts.TypeChecker, declaration: ts.Declaration): boolean {
  if (!ts.isMethodSignature(declaration) && !ts.isMethodDeclaration(declaration)) return true;
  const signature = checker.getSignatureFromDeclaration(declaration);
  if (!signature) return true;
  const result = checker.getReturnTypeOfSignature(signature);
  if (result.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeParameter)) return true;
  return /^Async(Generator|Iterable|IterableIterator|Iterator)$/.test(result.getSymbol()?.getName() ?? '');
}

function isImplementation(node: ts.Declaration): boolean {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) return Boolean(node.body);
  return ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node);
}

function initializerOf(node: ts.Declaration): ts.Node | undefined {
  return ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node) ? node.initializer : undefined;
}

function implementationsOf(ctx: CheckContext<unknown>, member: ts.Declaration): ts.Node[] {
  const container = member.parent;
  const memberName = ts.getNameOfDeclaration(member);
  const name = memberName && (ts.isIdentifier(memberName) || ts.isPrivateIdentifier(memberName)) ? memberName.text : undefined;
  if (!name || !(ts.isInterfaceDeclaration(container) || ts.isClassLike(container))) return [];
  const found: ts.Node[] = [];
  for (const cls of classesOf(ctx)) {
    if (cls === container || !inherits(cls, container, ctx.checker!, new Set())) continue;
    for (const candidate of cls.members) {
      if (candidate.name && ts.isIdentifier(candidate.name) && candidate.name.text === name && isImplementation(candidate)) {
        found.push(initializerOf(candidate) ?? candidate);
      }
    }
  }
  return found;
}

/**
 * Whether a scanned non-test file outside the program (which follows imports only `importDepth`
 * levels) spells the member's name: a class there may implement it (`class Eager implements
 * Source`, imported by nobody the program holds). A text test per name, no parse.
 */
function mentionedOutsideProgram(ctx: CheckContext<unknown>, member: ts.Declaration): boolean {
  const memberName = ts.getNameOfDeclaration(member);
  if (!memberName || !(ts.isIdentifier(memberName) || ts.isPrivateIdentifier(memberName))) return false;
  const program = ctx.program!;
  let memo = mentionsByProgram.get(program);
  if (!memo) {
    const inProgram = new Set<string>();
    for (const sourceFile of program.getSourceFiles()) {
      const info = ctx.fileAt(sourceFile.fileName);
      if (info) inProgram.add(info.file);
    }
    memo = { inProgram, answers: new Map() };
    mentionsByProgram.set(program, memo);
  }
  const name = memberName.text;
  let answer = memo.answers.get(name);
  if (answer === undefined) {
    const mentions = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    answer = ctx.files.some((file) => !file.isTest && !memo!.inProgram.has(file.file) && mentions.test(file.searchText));
    memo.answers.set(name, answer);
  }
  return answer;
}

const mentionsByProgram = new WeakMap<ts.Program, { inProgram: Set<string>; answers: Map<string, boolean> }>();

function classesOf(ctx: CheckContext<unknown>): ts.ClassLikeDeclaration[] {
  const program = ctx.program!;
  let classes = classesByProgram.get(program);
  if (classes) return classes;
  classes = [];
  for (const sourceFile of program.getSourceFiles()) {
    const info = ctx.fileAt(sourceFile.fileName);
    if (sourceFile.isDeclarationFile || !info || info.isTest) continue;
    walk(sourceFile, (node) => {
      if (ts.isClassLike(node)) classes!.push(node);
    });
  }
  classesByProgram.set(program, classes);
  return classes;
}

function inherits(node: ts.ClassLikeDeclaration | ts.InterfaceDeclaration, target: ts.Node, checker: ts.TypeChecker, seen: Set<ts.Node>): boolean {
  if (seen.has(node)) return false;
  seen.add(node);
  for (const clause of node.heritageClauses ?? []) {
    for (const type of clause.types) {
      let symbol = checker.getSymbolAtLocation(type.expression);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const declaration of symbol?.declarations ?? []) {
        if (declaration === target) return true;
        if ((ts.isClassLike(declaration) || ts.isInterfaceDeclaration(declaration)) && inherits(declaration, target, checker, seen)) return true;
      }
    }
  }
  return false;
}
