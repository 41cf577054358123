import { createHash } from 'node:crypto';
import ts from './typescript.cjs';

/**
 * Visits `root` and its descendants in source order with an explicit stack, not recursion:
 * generated code (a 3,000-term `+` chain) nests deeper than the call stack allows. `visit`
 * returning false skips the node's children.
 */
export function walk(root: ts.Node, visit: (node: ts.Node) => boolean | void): void {
  const stack: ts.Node[] = [root];
  const push = (child: ts.Node): void => {
    stack.push(child);
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visit(node) === false) continue;
    // Children go on the stack last-first, so that they come off it in source order.
    const first = stack.length;
    ts.forEachChild(node, push);
    for (let i = first, j = stack.length - 1; i < j; i++, j--) {
      const child = stack[i];
      stack[i] = stack[j];
      stack[j] = child;
    }
  }
}

const escapeSequence = /\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([0-3][0-7]{0,2}|[4-7][0-7]?)|(\r\n|[\n\r\u2028\u2029])|([^]))/g;

/**
 * The text with escape sequences decoded (`sendMessage\u0053tream`, `'\x53'`, a line continuation),
 * for the text prefilters: a name the parser sees through an escape is then plainly in the text.
 * Applied to the whole file, comments and regexes included, so it can only add matches.
 */
export function searchableText(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(escapeSequence, (sequence, braced?: string, unicode?: string, hex?: string, octal?: string, lineBreak?: string, other?: string) => {
    if (lineBreak !== undefined) return '';
    if (other !== undefined) return other;
    const code = octal !== undefined ? parseInt(octal, 8) : parseInt(braced ?? unicode ?? hex!, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : sequence;
  });
}

/** 1-based line and column of a node's first token (not its leading trivia). */
export function positionOf(node: ts.Node, sourceFile: ts.SourceFile): { line: number; column: number } {
  const { line, character } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
  return { line: line + 1, column: character + 1 };
}

const scanner = ts.createScanner(ts.ScriptTarget.Latest, true);

/**
 * The node's tokens without whitespace or comments, string literals re-quoted and trailing commas
 * dropped, so that a formatter pass (prettier, quote style, line wrapping) leaves it unchanged.
 */
export function normalizedText(node: ts.Node, sourceFile: ts.SourceFile): string {
  const start = node.getStart(sourceFile);
  scanner.setText(sourceFile.text, start, node.end - start);
  const tokens: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      tokens.push(JSON.stringify(scanner.getTokenValue()));
    } else {
      tokens.push(scanner.getTokenText());
    }
  }
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === ',' && /^[)\]}]$/.test(tokens[i + 1] ?? '')) continue;
    const previous = out[out.length - 1];
    out.push(previous && /[\w$]$/.test(previous) && /^[\w$]/.test(tokens[i]) ? ` ${tokens[i]}` : tokens[i]);
  }
  return out.join('');
}

/** The callee as a reader names it: `this.provider!.x?.["m"]` → `this.provider.x.m`. */
export function anchorText(text: string): string {
  return text
    .replace(/!(?=[.[)]|$)/g, '')
    .replace(/\?\./g, '.')
    .replace(/\.?\[("(?:[^"\\]|\\.)*")\]/g, (_m, literal: string) => `.${JSON.parse(literal) as string}`);
}

export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

type Wrapper = ts.ParenthesizedExpression | ts.NonNullExpression | ts.AsExpression | ts.SatisfiesExpression | ts.TypeAssertion;

export function isWrapper(node: ts.Node): node is Wrapper {
  return (
    ts.isParenthesizedExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isTypeAssertionExpression(node)
  );
}

/** Strips the wrappers that do not change which function is called: `(x)`, `x!`, `x as T`. */
export function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (isWrapper(current)) current = current.expression;
  return current;
}

/** The reverse of `unwrap`: the outermost of the wrappers around `node`. */
export function outermostWrapper(node: ts.Expression): ts.Expression {
  let current = node;
  while (isWrapper(current.parent)) current = current.parent;
  return current;
}

/**
 * The assignment an object or array literal destructures into, when it is an assignment pattern
 * (`({ m: local } = value)`, nested, or `for ({ m } of values)`); otherwise undefined.
 */
export function destructuringAssignmentOf(literal: ts.Expression): ts.BinaryExpression | ts.ForOfStatement | ts.ForInStatement | undefined {
  let found: ts.BinaryExpression | ts.ForOfStatement | ts.ForInStatement | undefined;
  for (let current: ts.Node = literal; ; ) {
    const parent = current.parent;
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.left === current) {
      found = parent; // the outer pattern may go on: `[{ m } = {}] = values`
      current = parent;
    } else if ((ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === current) {
      return parent;
    } else if (ts.isPropertyAssignment(parent) && parent.initializer === current) {
      current = parent.parent;
    } else if (ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent) || ts.isSpreadAssignment(parent)) {
      current = parent;
    } else {
      return found;
    }
  }
}

/** The member name of `a.m` or `a["m"]`, with the token a finding points at. */
export function memberName(node: ts.Expression): { name: string; token: ts.Node; receiver: ts.Expression } | undefined {
  if (ts.isPropertyAccessExpression(node)) return { name: node.name.text, token: node.name, receiver: node.expression };
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
    return { name: node.argumentExpression.text, token: node.argumentExpression, receiver: node.expression };
  }
  return undefined;
}
