import ts from './typescript.cjs';
import { walk } from './syntax.js';

/**
 * For names imported under another name (`import { Original as Local }`): the name an identifier
 * is declared under, that is the original name where the identifier refers to the import binding,
 * and its own text where a declaration in an enclosing scope (a parameter, variable, function,
 * class, catch binding…) hides the import. `relativeOnly`: only imports from the tree's own files
 * (`./`, `../`), for names looked up among the tree's declarations: `import { stream as s } from
 * 'hono/streaming'` is not the tree's `stream`.
 */
export function importedNames(sourceFile: ts.SourceFile, { relativeOnly = false } = {}): (identifier: ts.Identifier) => string {
  const aliases = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const from = (statement as ts.ImportDeclaration).moduleSpecifier;
    if (relativeOnly && !(ts.isStringLiteral(from) && /^\.{1,2}(\/|$)/.test(from.text))) continue;
    for (const specifier of bindings.elements) {
      if (specifier.propertyName) aliases.set(specifier.name.text, specifier.propertyName.text);
    }
  }
  if (aliases.size === 0) return (identifier) => identifier.text;
  const hoisted = new Map<ts.Node, Set<string>>();
  return (identifier) => {
    const original = aliases.get(identifier.text);
    return original !== undefined && !isShadowed(identifier, hoisted) ? original : identifier.text;
  };
}

/**
 * The module an identifier is imported from (`import { f }`, `import f`, `import * as f`,
 * `import f = require(…)`), where it refers to that import binding and no enclosing declaration
 * hides it; undefined for any other identifier.
 */
export function importSources(sourceFile: ts.SourceFile): (identifier: ts.Identifier) => string | undefined {
  const sources = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && statement.importClause) {
      const { name, namedBindings } = statement.importClause;
      const from = statement.moduleSpecifier.text;
      if (name) sources.set(name.text, from);
      if (namedBindings && ts.isNamespaceImport(namedBindings)) sources.set(namedBindings.name.text, from);
      else if (namedBindings) for (const specifier of namedBindings.elements) sources.set(specifier.name.text, from);
    } else if (
      ts.isImportEqualsDeclaration(statement) &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteral(statement.moduleReference.expression)
    ) {
      sources.set(statement.name.text, statement.moduleReference.expression.text);
    }
  }
  if (sources.size === 0) return () => undefined;
  const hoisted = new Map<ts.Node, Set<string>>();
  return (identifier) => {
    const from = sources.get(identifier.text);
    return from !== undefined && !isShadowed(identifier, hoisted) ? from : undefined;
  };
}

/** Whether a scope between the identifier and the module declares its name. */
function isShadowed(identifier: ts.Identifier, hoisted: Map<ts.Node, Set<string>>): boolean {
  const name = identifier.text;
  for (let node = identifier.parent; node && !ts.isSourceFile(node); node = node.parent) {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) {
      if (!ts.isClassStaticBlockDeclaration(node) && node.parameters.some((parameter) => binds(parameter.name, name))) return true;
      if ((ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node)) && node.name?.text === name) return true;
      if ('body' in node && node.body && varNames(node.body, hoisted).has(name)) return true;
    } else if (ts.isClassLike(node)) {
      if (node.name?.text === name) return true;
    } else if (ts.isBlock(node) || ts.isModuleBlock(node)) {
      if (node.statements.some((statement) => declares(statement, name))) return true;
    } else if (ts.isCaseBlock(node)) {
      if (node.clauses.some((clause) => clause.statements.some((statement) => declares(statement, name)))) return true;
    } else if (ts.isForStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) {
      const initializer = node.initializer;
      if (initializer && ts.isVariableDeclarationList(initializer) && initializer.declarations.some((d) => binds(d.name, name))) return true;
    } else if (ts.isCatchClause(node)) {
      if (node.variableDeclaration && binds(node.variableDeclaration.name, name)) return true;
    }
  }
  return false;
}

/** A declaration statement of a block (`let`/`const`/`var`, function, class, enum, namespace, `import x =`) that binds `name`. */
function declares(statement: ts.Statement, name: string): boolean {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.some((d) => binds(d.name, name));
  if (
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement) ||
    ts.isImportEqualsDeclaration(statement)
  ) {
    return statement.name !== undefined && ts.isIdentifier(statement.name) && statement.name.text === name;
  }
  return false;
}

/** The names a binding (`x`, `{ a, b: [c] }`) declares. */
function bindingNames(binding: ts.BindingName): string[] {
  const names: string[] = [];
  const stack: ts.BindingName[] = [binding];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (ts.isIdentifier(current)) names.push(current.text);
    else for (const element of current.elements) if (!ts.isOmittedExpression(element)) stack.push(element.name);
  }
  return names;
}

function binds(binding: ts.BindingName, name: string): boolean {
  return bindingNames(binding).includes(name);
}

/** `var` names declared anywhere in a function body, nested blocks included: they are hoisted to the function. */
function varNames(body: ts.Node, cache: Map<ts.Node, Set<string>>): Set<string> {
  const cached = cache.get(body);
  if (cached) return cached;
  const names = new Set<string>();
  walk(body, (node) => {
    if (node !== body && (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node))) return false;
    if (ts.isVariableDeclarationList(node) && !(node.flags & ts.NodeFlags.BlockScoped)) {
      for (const declaration of node.declarations) for (const name of bindingNames(declaration.name)) names.add(name);
    }
  });
  cache.set(body, names);
  return names;
}
