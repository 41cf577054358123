import path from 'node:path';
import ts from './typescript.cjs';
import { type DeclarationIndex, type FileReferences, generatorExpression, indexDeclarations, indexKey, isAsyncGeneratorFunction, onlyAsyncGenerators, scanAliasNames, scanAsyncGeneratorNames } from './async-generator-index.js';
import { enclosingTry, escapeOf } from './dead-catch-consumption.js';
import { defineCheck, type CheckContext, type RawFinding, type SourceUnit } from './define-check.js';
import { resolvesToAsyncGenerators } from './dead-catch-types.js';
import { importedNames, importSources } from './imported-names.js';
import { OwnModules } from './own-modules.js';
import { scopeOf } from './scope.js';
import { anchorText, memberName, normalizedText, positionOf, unwrap, walk } from './syntax.js';
import { textHashesOf } from './fingerprint-text.js';
import type { TrajauditConfig } from '../config/schema.js';

type Options = TrajauditConfig['rules']['dead-catch'];

interface Candidate {
  name: string;
  /** indexKey: a member call looks among members, a plain call (or a namespace's member) among plain names. */
  key: string;
  finding: Omit<RawFinding, 'rule'>;
}

interface State {
  names: Set<string>;
  mentionsName?: RegExp;
  index: DeclarationIndex;
  indexed: Set<string>;
  pending: Candidate[];
  /** Set on the first visit, when the root is known. */
  ownModules?: OwnModules;
}

export default defineCheck<'dead-catch', State>({
  id: 'dead-catch',
  title: 'Catch that cannot see an async generator’s errors',
  description:
    'A call to an async generator function inside a try whose catch is meant to handle its errors, while the returned generator is iterated outside that try (or returned). Calling an async generator runs none of its body, so the catch can never see the errors it raises.',
  defaultSeverity: 'error',
  needsTypes: (_options, typesFlag) => typesFlag,
  prepare(ctx) {
    const names = new Set<string>();
    for (const file of ctx.files) scanAsyncGeneratorNames(file.searchText, names);
    if (names.size > 0) scanAliasNames(ctx.files.map((file) => file.searchText), names);
    const words = [...names].map((name) => name.replace(/\$/g, '\\$'));
    const mentionsName = words.length ? new RegExp(`(?<![\\w$])(?:${words.join('|')})(?![\\w$])`) : undefined;
    return { names, mentionsName, index: new Map(), indexed: new Set(), pending: [] };
  },
  wants(text, state) {
    // An IIFE of an anonymous generator names nothing the tree declares.
    if (text.includes('catch') && generatorExpression.test(text)) return true;
    if (!state.mentionsName || !state.mentionsName.test(text)) return false;
    return text.includes('catch') || scanAsyncGeneratorNames(text, new Set());
  },
  visit(unit, ctx, state) {
    state.indexed.add(unit.file);
    state.ownModules ??= new OwnModules(unit.absPath.slice(0, unit.absPath.length - unit.file.length - 1), () =>
      new Set(ctx.files.map((file) => path.posix.dirname(file.file))),
    );
    const references = referencesOf(unit, state.ownModules);
    const { nameOf, namespaces, fromPackage } = references;
    if (!unit.isTest) indexDeclarations(unit.sourceFile, state.names, state.index, references);
    walk(unit.sourceFile, (node) => {
      if (ts.isCallExpression(node)) inspectCall(node, unit.file, unit.sourceFile, nameOf, namespaces, fromPackage, ctx, state);
    });
  },
  finish(ctx, state) {
    // The candidates' names, then the names their aliases take (`const viaAlias = Turns.stream`: stream).
    const done = new Set<string>();
    for (let names = new Set(state.pending.map((candidate) => candidate.name).filter(Boolean)); names.size > 0; ) {
      completeIndex(ctx, state, names);
      names.forEach((name) => done.add(name));
      const targets = [...state.index.values()].flatMap((entry) => entry.aliasOf ?? []).map((key) => key.slice(key.indexOf(' ') + 1));
      names = new Set(targets.filter((name) => !done.has(name)));
    }
    for (const candidate of state.pending) {
      if (onlyAsyncGenerators(state.index, candidate.key)) ctx.report(candidate.finding);
    }
  },
});

function inspectCall(
  call: ts.CallExpression,
  file: string,
  sourceFile: ts.SourceFile,
  nameOf: (identifier: ts.Identifier) => string,
  namespaces: Set<string>,
  fromPackage: (identifier: ts.Identifier) => boolean,
  ctx: CheckContext<Options>,
  state: State,
): void {
  const callee = throughCallOrApply(unwrap(call.expression), state.names, nameOf);
  const iife = ts.isFunctionExpression(callee);
  const member = memberName(callee);
  // The name the generator is declared under (an import may rename it), for the name index.
  const name = ts.isIdentifier(callee) ? nameOf(callee) : member?.name;
  if (!iife && (!name || !state.names.has(name))) return;
  const tryStatement = enclosingTry(call);
  if (!tryStatement) return;
  const escape = escapeOf(call, tryStatement.tryBlock);
  if (!escape) return;
  const importedAs = ts.isIdentifier(callee) ? callee : member && ts.isIdentifier(member.receiver) && namespaces.has(member.receiver.text) ? member.receiver : undefined;
  if (!iife && importedAs && fromPackage(importedAs)) return;
  const token = iife ? call : (member?.token ?? callee);
  const catchLine = positionOf(tryStatement.catchClause!, sourceFile).line;
  const shown = iife ? 'the async generator expression' : `${ts.isIdentifier(callee) ? callee.text : name}()`;
  const finding: Omit<RawFinding, 'rule'> = {
    file,
    ...positionOf(token, sourceFile),
    message:
      escape === 'returned'
        ? `${shown} is an async generator returned from inside the try: its body runs after the caller iterates it, so the catch at line ${catchLine} never sees its errors`
        : `${shown} is an async generator not iterated inside the try: its body runs only when iterated, so the catch at line ${catchLine} never sees its errors`,
    severity: 'error',
    scope: scopeOf(call).name,
    anchor: iife ? '(async function*)' : anchorText(normalizedText(callee, sourceFile)),
    ...textHashesOf(call, sourceFile),
    resolution: 'syntactic',
    details: { escape },
  };
  if (iife) {
    if (isAsyncGeneratorFunction(callee)) ctx.report(finding);
    return;
  }
  const typed = ctx.checker ? resolvesToAsyncGenerators(ctx, member?.token ?? callee) : 'unknown';
  if (typed === 'yes') ctx.report({ ...finding, resolution: 'resolved' });
  else if (typed === 'unknown') {
    const viaNamespace = member !== undefined && ts.isIdentifier(member.receiver) && namespaces.has(member.receiver.text);
    state.pending.push({ name: name!, key: indexKey(name!, member !== undefined && !viaNamespace), finding });
  }
}

/**
 * `gen.call(thisArg, …)` and `gen.apply(thisArg, [...])` call `gen` itself, and so run none of an
 * async generator's body either: the callee is `gen`, when its name is a candidate (a method of
 * that name stays the callee otherwise).
 */
function throughCallOrApply(callee: ts.Expression, names: Set<string>, nameOf: (identifier: ts.Identifier) => string): ts.Expression {
  const outer = memberName(callee);
  if (!outer || (outer.name !== 'call' && outer.name !== 'apply')) return callee;
  const inner = unwrap(outer.receiver);
  const name = ts.isIdentifier(inner) ? nameOf(inner) : memberName(inner)?.name;
  return name !== undefined && names.has(name) ? inner : callee;
}

/**
 * How one file's names reach other modules. A callee imported from a package (`import { parse }
 * from 'zod'`, `zod.parse()` through `import * as zod`) is that package's function, whatever the
 * tree declares under its name; so is a constant that is another name for it.
 */
function referencesOf(unit: SourceUnit, ownModules: OwnModules): FileReferences {
  const sourceOf = importSources(unit.sourceFile);
  return {
    nameOf: importedNames(unit.sourceFile, { relativeOnly: true }),
    namespaces: namespaceImports(unit.sourceFile),
    fromPackage: (identifier) => {
      const from = sourceOf(identifier);
      return from !== undefined && !ownModules.isOwn(from, unit.absPath);
    },
  };
}

/** Declarations of a candidate name may sit in files the prefilter skipped; a name declared anything but an async generator is not reported. */
function completeIndex(ctx: CheckContext<Options>, state: State, names: Set<string>): void {
  const words = [...names].map((name) => name.replace(/\$/g, '\\$'));
  const mentions = new RegExp(`(?<![\\w$])(?:${words.join('|')})(?![\\w$])`);
  for (const file of ctx.files) {
    if (file.isTest || state.indexed.has(file.file) || !mentions.test(file.searchText)) continue;
    const unit = ctx.parseFile(file.file);
    if (unit) indexDeclarations(unit.sourceFile, names, state.index, referencesOf(unit, state.ownModules!));
  }
}

/** Local names of namespace imports (`import * as ns`): `ns.f()` calls the plain function f. */
function namespaceImports(sourceFile: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of sourceFile.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
  }
  return names;
}
