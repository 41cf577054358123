import ts from './typescript.cjs';
import { memberName, unwrap, walk } from './syntax.js';

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
  if (consumedAt(outerExpression(call))) return undefined;
  // A generator in a literal goes where the literal goes: `const gens = [gen(), other()]`.
  let node = outerExpression(call);
  for (let holder = literalHolding(node); holder; holder = literalHolding(node)) node = outerExpression(holder);
  const parent = node.parent;
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) return 'returned';
  const variable =
    ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)
      ? parent.name
      : ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === node && isReference(parent.left)
        ? parent.left
        : undefined;
  // Held in a literal, the generator is reached through the variable's members (`turn.stream`),
  // or through the names a destructuring gives it (`const [a, b] = [gen(), other()]`).
  const held = node !== outerExpression(call);
  if (variable && (variableConsumed(variable, tryBlock, held) || holderUsed(variable, call, tryBlock))) return undefined;
  if (held && ts.isVariableDeclaration(parent) && parent.initializer === node && !ts.isIdentifier(parent.name)) {
    if (boundNames(parent.name).some((name) => variableConsumed(name, tryBlock, true))) return undefined;
  }
  return 'not-consumed';
}

/** The outermost expression whose value may be `node`'s: through wrappers, `c ? a : b`, `a ?? b`, `a || b`, `a && b` (right), `a, b` (right). */
function outerExpression(node: ts.Expression): ts.Expression {
  let current = node;
  for (let parent = current.parent; ; parent = current.parent) {
    if (
      ts.isParenthesizedExpression(parent) ||
      ts.isAwaitExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isNonNullExpression(parent) ||
      ts.isSatisfiesExpression(parent) ||
      (ts.isConditionalExpression(parent) && parent.condition !== current) ||
      (ts.isBinaryExpression(parent) && passesThrough(parent, current))
    ) {
      current = parent as ts.Expression;
    } else {
      return current;
    }
  }
}

function passesThrough(binary: ts.BinaryExpression, operand: ts.Expression): boolean {
  const operator = binary.operatorToken.kind;
  if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken) return true;
  return (operator === ts.SyntaxKind.AmpersandAmpersandToken || operator === ts.SyntaxKind.CommaToken) && binary.right === operand;
}

/** The receiver of `a.m` or `a["m"]` (unwrapped), with the member's name. */
function memberStep(node: ts.Node): { name: string; receiver: ts.Expression } | undefined {
  const member = ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) ? memberName(node) : undefined;
  return member && { name: member.name, receiver: unwrap(member.receiver) };
}

/**
 * A variable, `this`, or a member chain on one (`this.stream`, `state.streams["main"]`). This and
 * `sameReference` loop down the chain rather than recurse: generated code may chain 10,000 members.
 */
function isReference(node: ts.Node): node is ts.Expression {
  let current = node;
  for (let step = memberStep(current); step; step = memberStep(current)) current = step.receiver;
  return ts.isIdentifier(current) || current.kind === ts.SyntaxKind.ThisKeyword;
}

function sameReference(a: ts.Node, b: ts.Node): boolean {
  for (let left = a, right = b; ; ) {
    if (ts.isIdentifier(left) || ts.isIdentifier(right)) return ts.isIdentifier(left) && ts.isIdentifier(right) && left.text === right.text;
    if (left.kind === ts.SyntaxKind.ThisKeyword || right.kind === ts.SyntaxKind.ThisKeyword) return left.kind === right.kind;
    const leftStep = memberStep(left);
    const rightStep = memberStep(right);
    if (!leftStep || !rightStep || leftStep.name !== rightStep.name) return false;
    left = leftStep.receiver;
    right = rightStep.receiver;
  }
}

/** An array or object literal's element, with the literal: `merge([gen(), other])`, `run({ stream: gen() })`. */
function literalHolding(node: ts.Node): ts.Expression | undefined {
  const parent = node.parent;
  if (ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent)) return parent;
  if ((ts.isPropertyAssignment(parent) && parent.initializer === node) || ts.isShorthandPropertyAssignment(parent)) return parent.parent as ts.ObjectLiteralExpression;
  return undefined;
}

function consumedAt(start: ts.Expression): boolean {
  // A generator in a literal handed to a call is handed to the call, as a bare argument is.
  let node = start;
  for (let holder = literalHolding(node); holder; holder = literalHolding(node)) node = outerExpression(holder);
  const parent = node.parent;
  if (node !== start) return (ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.includes(node) === true;
  if (ts.isForOfStatement(parent) && parent.expression === node) return true;
  if (ts.isYieldExpression(parent) && parent.asteriskToken) return true;
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.includes(node)) return !ownMethodThis(parent, node);
  // gen().next(), gen()[Symbol.asyncIterator](), s.next.call(s) run the body; but the body's
  // errors reject the promise next() returns, so one thrown away (`void s.next()`, a bare
  // statement, a `.then(…)` nobody keeps) never reaches the catch.
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === node) {
    const call = memberCall(parent);
    return call !== undefined && !thrownAway(settledBy(call));
  }
  return false;
}

const isCallOf = (node: ts.Node, callee: ts.Node): node is ts.CallExpression => ts.isCallExpression(node) && node.expression === callee;

/** `node.m` or `node["m"]`, with the member's name. */
function memberOf(node: ts.Expression): string | undefined {
  const parent = node.parent;
  return (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === node ? memberName(parent)?.name : undefined;
}

/** The call of a member: `s.next()`, or `s.next.call(…)` / `.apply(…)`. */
function memberCall(member: ts.Expression): ts.CallExpression | undefined {
  if (isCallOf(member.parent, member)) return member.parent;
  const through = memberOf(member);
  return (through === 'call' || through === 'apply') && isCallOf(member.parent.parent, member.parent) ? member.parent.parent : undefined;
}

/** `s.next.call(s)`: `s` as the this of its own method, which memberCall judges, not a generator handed to a call. */
function ownMethodThis(call: ts.CallExpression | ts.NewExpression, argument: ts.Expression): boolean {
  if (!ts.isCallExpression(call) || call.arguments[0] !== argument || !isReference(argument)) return false;
  const through = memberName(call.expression);
  const method = through && (through.name === 'call' || through.name === 'apply') ? memberStep(unwrap(through.receiver)) : undefined;
  return method !== undefined && sameReference(method.receiver, argument);
}

/** The last promise of a `.then(…)`, `.catch(…)`, `.finally(…)` chain on `call`'s: where its rejection goes. */
function settledBy(call: ts.CallExpression): ts.Expression {
  let current: ts.Expression = call;
  for (let name = memberOf(current); (name === 'then' || name === 'catch' || name === 'finally') && isCallOf(current.parent.parent, current.parent); name = memberOf(current)) {
    current = current.parent.parent as ts.CallExpression;
  }
  return current;
}

/** A value nobody gets: a statement of its own, under `void`, or left of a comma (through parentheses and casts). */
function thrownAway(node: ts.Expression): boolean {
  for (let current: ts.Node = node; ; current = current.parent) {
    const parent = current.parent;
    if (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isNonNullExpression(parent) || ts.isSatisfiesExpression(parent)) continue;
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.CommaToken) {
      if (parent.left === current) return true;
      continue;
    }
    return ts.isExpressionStatement(parent) || ts.isVoidExpression(parent);
  }
}

function variableConsumed(variable: ts.Expression, tryBlock: ts.Block, orMember = false, seen = new Set<ts.Node>([variable])): boolean {
  let consumed = false;
  const aliases: ts.Expression[] = [];
  walk(tryBlock, (node) => {
    // Functions defined in the try count too (`new ReadableStream({ pull() { it.next() } })`): a
    // miss when one runs only later costs less than a false finding.
    if (consumed) return false;
    if (node === variable || !ts.isExpression(node)) return;
    // The constant-time test first: of a member chain's links only the outermost can be consumed,
    // so a chain is compared with the variable once, not once per link.
    if (!consumedAt(outerExpression(node))) {
      const alias = aliasOf(node);
      if (alias && !seen.has(alias) && sameReference(node, variable)) {
        seen.add(alias);
        aliases.push(alias);
      }
      return;
    }
    if (isReference(node) && (sameReference(node, variable) || (orMember && startsWith(node, variable)))) consumed = true;
  });
  // A second name for the generator (`const source = stream; for await (… of source)`) consumes it
  // too. Each name is followed once (`seen`), so copies back and forth cannot loop.
  return consumed || aliases.some((alias) => variableConsumed(alias, tryBlock, orMember, seen));
}

/** The variable or reference that `node` (a plain reference) is copied into: `const b = a`, `b = a`. */
function aliasOf(node: ts.Expression): ts.Expression | undefined {
  if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node) && !ts.isElementAccessExpression(node) && node.kind !== ts.SyntaxKind.ThisKeyword) return undefined;
  const outer = outerExpression(node);
  const parent = outer.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === outer && ts.isIdentifier(parent.name)) return parent.name;
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === outer && isReference(parent.left)) return parent.left;
  return undefined;
}

/**
 * A generator stored in a member (`this.current = gen()`) is reached by code that gets the object
 * holding it: a method called on that object (`await this.pump()`) or a call it is handed to
 * (`await drain(state)`) inside the try. Whether that code iterates it is not followed; the rule
 * prefers a miss to a false finding.
 */
function holderUsed(variable: ts.Expression, call: ts.Expression, tryBlock: ts.Block): boolean {
  const holders: ts.Expression[] = [];
  for (let step = memberStep(variable); step; step = memberStep(step.receiver)) holders.push(step.receiver);
  if (holders.length === 0) return false;
  const isHolder = (node: ts.Expression) => holders.some((holder) => sameReference(unwrap(node), holder));
  let used = false;
  walk(tryBlock, (node) => {
    // The generator's own call (`this.current = this.turns(q)`) hands it to nobody.
    if (used || node === call) return false;
    if (!ts.isCallExpression(node) && !ts.isNewExpression(node)) return;
    const step = ts.isCallExpression(node) ? memberStep(unwrap(node.expression)) : undefined;
    if ((step && isHolder(step.receiver)) || node.arguments?.some(isHolder)) used = true;
  });
  return used;
}

/** Whether a member chain goes through `variable` (`turn.stream` through `turn`). */
function startsWith(chain: ts.Node, variable: ts.Node): boolean {
  for (let step = memberStep(chain); step; step = memberStep(step.receiver)) {
    if (sameReference(step.receiver, variable)) return true;
  }
  return false;
}

function boundNames(pattern: ts.BindingName): ts.Identifier[] {
  if (ts.isIdentifier(pattern)) return [pattern];
  return pattern.elements.flatMap((element) => (ts.isBindingElement(element) ? boundNames(element.name) : []));
}
