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
 */
export function scopeOf(node: ts.Node): Scope {
  let kind: ScopeKind | undefined;
  for (let current = node.parent; current; current = current.parent) {
    if (ts.isFunctionLike(current) && !ts.isTypeNode(current) && !ts.isMethodSignature(current)) {
      kind ??= 'function';
      const name = functionName(current);
      if (name) return { kind, name };
    } else if (ts.isPropertyDeclaration(current) && current.initializer) {
      kind ??= 'class-field';
      return { kind, name: `${containerName(current.parent)}.${propertyName(current.name)}` };
    }
  }
  return { kind: kind ?? 'module', name: kind ? '<anonymous>' : '<module>' };
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
