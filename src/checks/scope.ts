import ts from './typescript.cjs';

export type ScopeKind = 'module' | 'class-field' | 'function';
export interface Scope {
  kind: ScopeKind;
  /** `<module>`, `Class.field`, `Class.method`, `Class.constructor` or `functionName`. */
  name: string;
}

/**
 * The enclosing scope of a node. Anonymous functions (callbacks) take the name of the nearest
 * named scope around them, so that the name stays stable when code moves inside a function.
 * An immediately invoked function whose result is kept runs where it stands, and a static field
 * or block when its class is defined: both take the kind of the scope around them (`module` at top
 * level). One whose result is thrown away is a startup block, a function scope like `main()`.
 */
export function scopeOf(node: ts.Node): Scope {
  let kind: ScopeKind | undefined;
  let name: string | undefined;
  for (let current = node.parent; current; current = current.parent) {
    if (ts.isFunctionLike(current) && !ts.isTypeNode(current) && !ts.isMethodSignature(current)) {
      if (isImmediatelyInvoked(current)) continue;
      kind ??= 'function';
      name ??= functionName(current);
      if (name) return { kind, name };
    } else if (ts.isPropertyDeclaration(current) && current.initializer) {
      name ??= `${containerName(current.parent)}.${propertyName(current.name)}`;
      if (kind || !isStatic(current)) return { kind: kind ?? 'class-field', name };
    }
  }
  return { kind: kind ?? 'module', name: name ?? (kind ? '<anonymous>' : '<module>') };
}

function isImmediatelyInvoked(fn: ts.SignatureDeclaration): boolean {
  if (!ts.isFunctionExpression(fn) && !ts.isArrowFunction(fn)) return false;
  let callee: ts.Node = fn;
  while (ts.isParenthesizedExpression(callee.parent)) callee = callee.parent;
  // `(function () { … }).call(this)` runs it as well.
  const access = callee.parent;
  if (ts.isPropertyAccessExpression(access) && access.expression === callee && (access.name.text === 'call' || access.name.text === 'apply')) {
    callee = access;
  }
  if (!ts.isCallExpression(callee.parent) || callee.parent.expression !== callee) return false;
  // Only when its result is kept (`const shared = (() => new C())()`): one whose result is thrown
  // away (`void (async () => { … })()`, a statement) is a startup block, like `main()`.
  let use: ts.Node = callee.parent;
  while (ts.isParenthesizedExpression(use.parent) || ts.isAwaitExpression(use.parent) || ts.isAsExpression(use.parent) || ts.isNonNullExpression(use.parent)) use = use.parent;
  return !ts.isExpressionStatement(use.parent) && !ts.isVoidExpression(use.parent);
}

function isStatic(node: ts.PropertyDeclaration): boolean {
  return Boolean(ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Static);
}

function functionName(fn: ts.SignatureDeclaration): string | undefined {
  if (ts.isConstructorDeclaration(fn)) return `${containerName(fn.parent)}.constructor`;
  if (ts.isMethodDeclaration(fn) || ts.isGetAccessor(fn) || ts.isSetAccessor(fn)) {
    return `${containerName(fn.parent)}.${propertyName(fn.name)}`;
  }
  if (ts.isFunctionDeclaration(fn)) return fn.name?.text ?? 'default';
  if (ts.isFunctionExpression(fn) || ts.isArrowFunction(fn)) {
    const parent = fn.parent;
    if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
    if (ts.isPropertyAssignment(parent)) return `${containerName(parent.parent)}.${propertyName(parent.name)}`;
    if (ts.isPropertyDeclaration(parent)) return `${containerName(parent.parent)}.${propertyName(parent.name)}`;
    if (ts.isFunctionExpression(fn) && fn.name) return fn.name.text;
  }
  return undefined;
}

function containerName(node: ts.Node): string {
  if ((ts.isClassLike(node) || ts.isInterfaceDeclaration(node)) && node.name) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return propertyName(parent.name);
  return ts.isClassLike(node) ? '<class>' : '<object>';
}

function propertyName(name: ts.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) {
    return name.text;
  }
  return '[computed]';
}

/** What the baseline needs to know of a file's functions to tell a moved finding from a new one. */
export interface FileScopes {
  /** The scope names its functions, methods and fields give (`scopeOf` inside each), and `<module>`. */
  scopes: Set<string>;
  /** Per scope, the names it calls (`helper(…)`, `this.helper(…)`): an extracted method is called where it came from. */
  calls: Map<string, Set<string>>;
}

export function scopeInventory(sourceFile: ts.SourceFile): FileScopes {
  const scopes = new Set<string>(['<module>']);
  const calls = new Map<string, Set<string>>();
  // Iterative: generated code nests deeper than the call stack allows (see `walk` in syntax.ts).
  const stack: ts.Node[] = [sourceFile];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if ((ts.isFunctionLike(node) && 'body' in node && node.body) || (ts.isPropertyDeclaration(node) && node.initializer)) {
      const inside = ts.isPropertyDeclaration(node) ? node.initializer! : (node.body as ts.Node);
      scopes.add(scopeOf(inside).name);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
      if (name !== undefined) {
        const caller = scopeOf(node).name;
        calls.set(caller, (calls.get(caller) ?? new Set()).add(name));
      }
    }
    ts.forEachChild(node, (child) => {
      stack.push(child);
    });
  }
  return { scopes, calls };
}
