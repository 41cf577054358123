import ts from './typescript.cjs';
import { walk } from './syntax.js';

// Cheap text scan for names that may be declared as async generators; a superset is fine, the
// parsed declarations decide. Anchored on `async` so that the scan stays linear in the text.
// Whitespace or comments may sit between the tokens (`async /* paged */ * pages()`).
const gap = String.raw`(?:\s|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/|//[^\n\r]*)*`;
const declaration = new RegExp(
  String.raw`\basync(?![\w$])${gap}function${gap}\*${gap}([A-Za-z_$][\w$]*)?|\basync${gap}\*${gap}(#?[A-Za-z_$][\w$]*)${gap}[(<]`,
  'g',
);
const assignedTo = new RegExp(String.raw`(#?[A-Za-z_$][\w$]*)\s*[:=]${gap}$`);
/** An async generator function expression, named or not (an IIFE's has no name to search for). */
export const generatorExpression = new RegExp(String.raw`\basync(?![\w$])${gap}function${gap}\*`);

export function scanAsyncGeneratorNames(text: string, into: Set<string>): boolean {
  if (!text.includes('async')) return false;
  let found = false;
  declaration.lastIndex = 0;
  for (let match = declaration.exec(text); match; match = declaration.exec(text)) {
    const name = match[1] ?? match[2] ?? assignedTo.exec(text.slice(Math.max(0, match.index - 80), match.index))?.[1];
    if (name) {
      into.add(name);
      found = true;
    }
  }
  return found;
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
export type DeclarationIndex = Map<string, { asyncGenerator: number; other: number }>;

export const indexKey = (name: string, member: boolean) => `${member ? 'member' : 'plain'} ${name}`;

/** Adds the declarations in one file whose names are in `names`. Bodiless signatures (interfaces, overloads, abstract) are skipped: their implementations count instead. */
export function indexDeclarations(sourceFile: ts.SourceFile, names: Set<string>, index: DeclarationIndex): void {
  const add = (name: string, isAsyncGenerator: boolean, member: boolean) => {
    if (!names.has(name)) return;
    const key = indexKey(name, member);
    const entry = index.get(key) ?? { asyncGenerator: 0, other: 0 };
    if (isAsyncGenerator) entry.asyncGenerator++;
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
      if (name) add(name, Boolean(initializer && isAsyncGeneratorFunction(initializer)), ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node));
    }
  });
}

function declaredName(name: ts.Node): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name)) return name.text;
  return undefined;
}
