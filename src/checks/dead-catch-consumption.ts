import ts from './typescript.cjs';
import { walk } from './syntax.js';

export interface TrySite {
  tryStatement: ts.TryStatement;
  /** Why the generator escapes the try: returned to the caller, or never iterated inside it. */
  escape: 'returned' | 'not-consumed';
}

/** The nearest `try { … } catch` whose try block holds the call, without crossing a function boundary. */
export function enclosingTry(call: ts.Node): ts.TryStatement | undefined {
  let child: ts.Node = call;
  for (let node = call.parent; node; child = node, node = node.parent) {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return undefined;
    if (ts.isTryStatement(node) && node.tryBlock === child && node.catchClause) return node;
  }
  return undefined;
}

/** Whether the generator returned by `call` is iterated (or handed to a call) inside `tryBlock`. */
export function escapeOf(call: ts.Expression, tryBlock: ts.Block): TrySite['escape'] | undefined {
  const node = outerExpression(call);
  const parent = node.parent;
  if (consumedAt(node)) return undefined;
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) return 'returned';
  const variable =
    ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)
      ? parent.name
      : ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === node && ts.isIdentifier(parent.left)
        ? parent.left
        : undefined;
  if (variable && variableConsumed(variable, tryBlock)) return undefined;
  return 'not-consumed';
}

function outerExpression(node: ts.Expression): ts.Expression {
  let current = node;
  while (
    ts.isParenthesizedExpression(current.parent) ||
    ts.isAwaitExpression(current.parent) ||
    ts.isAsExpression(current.parent) ||
    ts.isNonNullExpression(current.parent) ||
    ts.isSatisfiesExpression(current.parent)
  ) {
    current = current.parent;
  }
  return current;
}

function consumedAt(node: ts.Expression): boolean {
  const parent = node.parent;
  if (ts.isForOfStatement(parent) && parent.expression === node) return true;
  if (ts.isYieldExpression(parent) && parent.asteriskToken) return true;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.includes(node)) return true;
  // gen().next(), gen()[Symbol.asyncIterator]() run the body.
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === node) {
    return ts.isCallExpression(parent.parent) && parent.parent.expression === parent;
  }
  return false;
}

function variableConsumed(variable: ts.Identifier, tryBlock: ts.Block): boolean {
  let consumed = false;
  walk(tryBlock, (node) => {
    if (consumed || ts.isFunctionLike(node)) return false;
    if (ts.isIdentifier(node) && node !== variable && node.text === variable.text && consumedAt(outerExpression(node))) consumed = true;
  });
  return consumed;
}
