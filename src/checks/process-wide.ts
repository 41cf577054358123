import ts from './typescript.cjs';
import { positionOf, walk } from './syntax.js';

/**
 * How a construction inside a function still makes one instance for the whole process:
 * - `lazy`: its value is stored in a module-level variable (`instance ??= new C()`,
 *   `if (!cached) cached = new C()`): the classic lazy singleton;
 * - `init`: it is the result of a top-level function that the module calls at load and keeps the
 *   result of (`function init() { return new C(); } export const shared = init();`), the named
 *   form of a kept immediately invoked function.
 * undefined when neither is seen (a local, a field, a value handed to the caller). Syntax only:
 * a store through another variable, or an init function called from another file, is missed.
 */
export type ProcessWide = { how: 'lazy'; variable: string } | { how: 'init'; fn: string; line: number };

export function processWideHolder(construction: ts.Expression, sourceFile: ts.SourceFile): ProcessWide | undefined {
  const value = valueOf(construction);
  const parent = value.parent;
  if (ts.isBinaryExpression(parent) && parent.right === value && storeOperators.has(parent.operatorToken.kind) && ts.isIdentifier(parent.left)) {
    return isModuleVariable(parent.left) ? { how: 'lazy', variable: parent.left.text } : undefined;
  }
  const fn = returnedFrom(value);
  const name = fn && topLevelFunctionName(fn);
  if (!name) return undefined;
  const call = keptTopLevelCall(sourceFile, name);
  return call ? { how: 'init', fn: name, line: positionOf(call, sourceFile).line } : undefined;
}

const storeOperators = new Set([ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken]);

const fallbackOperators = new Set([ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken]);

/** The outermost expression that has the construction's value: through parentheses, casts, `??`, `||` and `?:` branches. */
function valueOf(node: ts.Expression): ts.Expression {
  let value = node;
  for (;;) {
    const parent = value.parent;
    if (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isNonNullExpression(parent) || ts.isSatisfiesExpression(parent)) value = parent;
    else if (ts.isBinaryExpression(parent) && parent.right === value && fallbackOperators.has(parent.operatorToken.kind)) value = parent;
    else if (ts.isConditionalExpression(parent) && parent.condition !== value) value = parent;
    else return value;
  }
}

/**
 * Whether the name, where it is assigned, is a variable declared at the top level of its file:
 * no function or block around the assignment declares one of that name (a parameter, a `let`,
 * `const` or `var`, a nested function), and the file does.
 */
function isModuleVariable(name: ts.Identifier): boolean {
  for (let scope: ts.Node | undefined = name.parent; scope; scope = scope.parent) {
    if (ts.isSourceFile(scope)) return declaresAtTop(scope.statements, name.text);
    if (ts.isFunctionLike(scope) && scope.parameters.some((p) => bindsName(p.name, name.text))) return false;
    if ((ts.isBlock(scope) || ts.isModuleBlock(scope)) && declaresAtTop(scope.statements, name.text)) return false;
    if (ts.isFunctionLike(scope) && 'body' in scope && scope.body && declaresVar(scope.body, name.text)) return false;
    if (ts.isForStatement(scope) || ts.isForOfStatement(scope) || ts.isForInStatement(scope)) {
      const list = scope.initializer;
      if (list && ts.isVariableDeclarationList(list) && list.declarations.some((d) => bindsName(d.name, name.text))) return false;
    }
    if (ts.isCatchClause(scope) && scope.variableDeclaration && bindsName(scope.variableDeclaration.name, name.text)) return false;
  }
  return false;
}

function declaresAtTop(statements: ts.NodeArray<ts.Statement>, name: string): boolean {
  return statements.some((s) =>
    ts.isVariableStatement(s)
      ? s.declarationList.declarations.some((d) => bindsName(d.name, name))
      : (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name?.text === name,
  );
}

/** A `var` anywhere in a function body (not in a nested function) is local to that function. */
function declaresVar(body: ts.Node, name: string): boolean {
  let found = false;
  walk(body, (node) => {
    if (found || (node !== body && ts.isFunctionLike(node))) return false;
    if (ts.isVariableDeclaration(node) && bindsName(node.name, name)) found = true;
  });
  return found;
}

function bindsName(binding: ts.BindingName, name: string): boolean {
  if (ts.isIdentifier(binding)) return binding.text === name;
  return binding.elements.some((element) => !ts.isOmittedExpression(element) && bindsName(element.name, name));
}

/** The function whose result the value is: `return value`, or an arrow's expression body. */
function returnedFrom(value: ts.Expression): ts.SignatureDeclaration | undefined {
  const parent = value.parent;
  if (ts.isArrowFunction(parent) && parent.body === value) return parent;
  if (ts.isReturnStatement(parent)) return ts.findAncestor(parent, ts.isFunctionLike) as ts.SignatureDeclaration | undefined;
  return undefined;
}

/** `function init() {…}` or `const init = () => …` at the top level of the file. */
function topLevelFunctionName(fn: ts.SignatureDeclaration): string | undefined {
  if (ts.isFunctionDeclaration(fn) && fn.name && ts.isSourceFile(fn.parent)) return fn.name.text;
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)) {
    const statement = fn.parent.parent.parent;
    if (ts.isVariableStatement(statement) && ts.isSourceFile(statement.parent)) return fn.parent.name.text;
  }
  return undefined;
}

/** A call `name()` run when the module loads (outside any function) whose result is kept. */
function keptTopLevelCall(sourceFile: ts.SourceFile, name: string): ts.CallExpression | undefined {
  let found: ts.CallExpression | undefined;
  walk(sourceFile, (node) => {
    if (found || ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name) {
      let use: ts.Node = node;
      while (ts.isParenthesizedExpression(use.parent) || ts.isAwaitExpression(use.parent) || ts.isAsExpression(use.parent) || ts.isNonNullExpression(use.parent)) use = use.parent;
      if (!ts.isExpressionStatement(use.parent) && !ts.isVoidExpression(use.parent)) found = node;
    }
  });
  return found;
}
