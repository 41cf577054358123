import ts from './typescript.cjs';
import { unwrap, walk } from './syntax.js';

// Cheap text scan for names that may be declared as async generators; a superset is fine, the
// parsed declarations decide. Anchored on `async` so that the scan stays linear in the text.
// Whitespace or comments may sit between the tokens (`async /* paged */ * pages()`).
const gap = String.raw`(?:\s|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/|//[^\n\r]*)*`;
const declaration = new RegExp(
  String.raw`\basync(?![\w$])${gap}function${gap}\*${gap}([A-Za-z_$][\w$]*)?|\basync${gap}\*${gap}(#?[A-Za-z_$][\w$]*)${gap}[(<]`,
  'g',
);
const assignedTo = new RegExp(String.raw`(#?[A-Za-z_$][\w$]*)\s*[:=]${gap}$`);
// A typed variable or field (`const pages: PageFn = async function* …`, `private rows?: Fn = …`):
// the name heading the declaration, not the type just before the `=`. The type may hold `=>` but
// no other `=` and no `;`, so an earlier statement cannot run into the match.
const modifiers = String.raw`(?:(?:export|declare|public|private|protected|static|readonly|override|accessor)\s+)*`;
const typedDeclaration = new RegExp(
  String.raw`(?:\b(?:const|let|var)\s+|(?:^|[{;])[ \t]*${modifiers})(#?[A-Za-z_$][\w$]*)\s*[?!]?\s*:(?:[^;=]|=>)*=${gap}$`,
  'm',
);
/** How far back from `async function*` the name it is assigned to is looked for. */
const lookBehind = 240;
/** An async generator function expression, named or not (an IIFE's has no name to search for). */
export const generatorExpression = new RegExp(String.raw`\basync(?![\w$])${gap}function${gap}\*`);

export function scanAsyncGeneratorNames(text: string, into: Set<string>): boolean {
  if (!text.includes('async')) return false;
  let found = false;
  declaration.lastIndex = 0;
  for (let match = declaration.exec(text); match; match = declaration.exec(text)) {
    // A function expression's own name (`async function* named`) is visible only in its body:
    // callers use the name it is assigned to, so both are kept.
    const names: Array<string | undefined> = [match[1] ?? match[2]];
    if (match[2] === undefined) {
      const start = Math.max(0, match.index - lookBehind);
      let before = text.slice(start, match.index);
      // A window cut mid-line would let `^` match inside a name.
      if (start > 0) before = before.slice(before.search(/[\n\r]/) + 1);
      names.push(assignedTo.exec(before)?.[1], typedDeclaration.exec(before)?.[1]);
    }
    for (const name of names) {
      if (!name) continue;
      into.add(name);
      found = true;
    }
  }
  return found;
}

/**
 * A constant that only takes another name for a candidate (`export const viaAlias = Turns.stream`,
 * `const pages: PageFn = listPages;`): its name is a candidate too. Repeated until no name is
 * new, for an alias of an alias. The parsed declaration decides (indexDeclarations).
 */
// The annotation stays on the declaration's line (scanning on to the next `=` of the file makes the
// scan quadratic on files of typed declarations without an initializer); `!`, a cast, a closing
// parenthesis, `;`, a comment or the line's end may follow the name.
// A string literal type in the annotation may hold `=` (`{ tag?: "a=b" }`).
const aliasDeclaration = new RegExp(
  String.raw`\bconst\s+(?<alias>[A-Za-z_$][\w$]*)[ \t]*(?::(?:[^;=\n\r'"]|=>|'[^'\n\r]*'|"[^"\n\r]*")*)?=\s*\(?\s*(?:[A-Za-z_$][\w$]*\s*\.\s*)*(?<target>[A-Za-z_$][\w$]*)[ \t]*(?:[!);\n\r]|\bas\b|\bsatisfies\b|//|/\*|$)`,
  'g',
);

/** An import or export under another name (`import { viaAlias as va }`): `va` names what `viaAlias` does. */
const renamedBinding = /(?<![\w$.])(?<target>[A-Za-z_$][\w$]*)\s+as\s+(?<alias>[A-Za-z_$][\w$]*)(?=\s*[,}])/g;

export function scanAliasNames(texts: string[], names: Set<string>): void {
  for (let grew = true; grew; ) {
    grew = false;
    // Only a file that spells a candidate can alias one: a cheap test before the declaration scan.
    const mentions = new RegExp(`(?<![\\w$])(?:${[...names].map((name) => name.replace(/\$/g, '\\$')).join('|')})(?![\\w$])`);
    for (const text of texts) {
      if (!mentions.test(text)) continue;
      for (const pattern of [aliasDeclaration, renamedBinding]) {
        pattern.lastIndex = 0;
        for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
          const { alias, target } = match.groups!;
          if (names.has(target) && !names.has(alias)) {
            names.add(alias);
            grew = true;
          }
        }
      }
    }
  }
}

export function isAsyncGeneratorFunction(node: ts.Node): boolean {
  return (
    (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isFunctionExpression(node)) &&
    Boolean(node.asteriskToken) &&
    Boolean(ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Async)
  );
}

/**
 * Per key (`indexKey`): how many declarations in the scanned tree are async generators, and how
 * many are anything else. Members (methods, properties) and plain names (functions, variables,
 * parameters) are kept apart: `tools.map()` is never the tree's `async function* map`.
 */
export type DeclarationIndex = Map<string, { asyncGenerator: number; other: number; aliasOf?: string[] }>;

export const indexKey = (name: string, member: boolean) => `${member ? 'member' : 'plain'} ${name}`;

/** Adds the declarations in one file whose names are in `names`. Bodiless signatures (interfaces, overloads, abstract) are skipped: their implementations count instead. */
/** How a file's names reach other modules, for aliases: see aliasTarget. */
export interface FileReferences {
  /** The name an identifier is declared under (an import may rename it). */
  nameOf: (identifier: ts.Identifier) => string;
  /** Local names of namespace imports (`import * as G`): `G.f` is the plain function f. */
  namespaces: Set<string>;
  /** The identifier is imported from a package, not from the tree. */
  fromPackage: (identifier: ts.Identifier) => boolean;
}

export function indexDeclarations(sourceFile: ts.SourceFile, names: Set<string>, index: DeclarationIndex, references?: FileReferences): void {
  const add = (name: string, isAsyncGenerator: boolean, member: boolean, aliasOf?: string) => {
    if (!names.has(name)) return;
    const key = indexKey(name, member);
    const entry = index.get(key) ?? { asyncGenerator: 0, other: 0 };
    if (aliasOf !== undefined) (entry.aliasOf ??= []).push(aliasOf);
    else if (isAsyncGenerator) entry.asyncGenerator++;
    else entry.other++;
    index.set(key, entry);
  };
  walk(sourceFile, (node) => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.body && node.name) {
      const name = declaredName(node.name);
      if (name) add(name, isAsyncGeneratorFunction(node), ts.isMethodDeclaration(node));
    } else if (
      (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node)) &&
      !ts.isObjectBindingPattern(node.name) &&
      !ts.isArrayBindingPattern(node.name)
    ) {
      const name = declaredName(node.name);
      const initializer = 'initializer' in node ? node.initializer : undefined;
      const target = initializer && isConstDeclaration(node) ? aliasTarget(initializer, references) : undefined;
      // Another name for a package's function is never the tree's generator.
      const member = ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node);
      if (name) add(name, Boolean(initializer && isAsyncGeneratorFunction(initializer)), member, target === PACKAGE ? undefined : target);
    }
  });
}

function declaredName(name: ts.Node): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name)) return name.text;
  return undefined;
}

/** A `const` (a `let` may take another value later, which the index does not follow). */
export function isConstDeclaration(node: ts.Node): node is ts.VariableDeclaration {
  return ts.isVariableDeclaration(node) && ts.isVariableDeclarationList(node.parent) && (node.parent.flags & ts.NodeFlags.Const) !== 0;
}

const PACKAGE = 'package';

/**
 * The key a constant's initializer names when it is only another name: `f` (plain, under the name
 * it is declared as), `X.m` (member m), `G.f` through a namespace import (plain f); PACKAGE for a
 * name imported from a package.
 */
function aliasTarget(initializer: ts.Expression, references?: FileReferences): string | undefined {
  const value = unwrap(initializer);
  if (ts.isIdentifier(value)) {
    if (references?.fromPackage(value)) return PACKAGE;
    return indexKey(references ? references.nameOf(value) : value.text, false);
  }
  if (!ts.isPropertyAccessExpression(value) || !ts.isIdentifier(value.name)) return undefined;
  const receiver = unwrap(value.expression);
  if (ts.isIdentifier(receiver) && references?.namespaces.has(receiver.text)) {
    return references.fromPackage(receiver) ? PACKAGE : indexKey(value.name.text, false);
  }
  return indexKey(value.name.text, true);
}

/**
 * Whether every declaration under `key` is an async generator, an alias counting as what it names
 * (each name followed once). A name with no declaration found is not one.
 */
export function onlyAsyncGenerators(index: DeclarationIndex, key: string, path = new Set<string>()): boolean {
  const entry = index.get(key);
  if (!entry || entry.other > 0 || path.has(key)) return false;
  const aliases = entry.aliasOf ?? [];
  // The keys on the way here, not every key seen: two files may alias the same name.
  const onPath = new Set(path).add(key);
  return (entry.asyncGenerator > 0 || aliases.length > 0) && aliases.every((target) => onlyAsyncGenerators(index, target, onPath));
}
