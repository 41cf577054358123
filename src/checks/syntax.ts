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

/**
 * 1-based line and column (UTF-16) of a node's first token (not its leading trivia). Lines end at
 * LF, CRLF or a lone CR, as git, grep and GitHub count them: TypeScript's line map also ends one
 * at U+2028 and U+2029, even inside a comment or a string, which put annotations a line late.
 */
export function positionOf(node: ts.Node, sourceFile: ts.SourceFile): { line: number; column: number } {
  const at = node.getStart(sourceFile);
  const starts = lineStarts(sourceFile);
  let low = 0;
  for (let high = starts.length - 1; low < high; ) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= at) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: at - starts[low] + 1 };
}

const lineStartsOf = new WeakMap<ts.SourceFile, number[]>();

function lineStarts(sourceFile: ts.SourceFile): number[] {
  let starts = lineStartsOf.get(sourceFile);
  if (!starts) {
    starts = [0];
    for (const match of sourceFile.text.matchAll(/\r\n?|\n/g)) starts.push(match.index + match[0].length);
    lineStartsOf.set(sourceFile, starts);
  }
  return starts;
}

const scanner = ts.createScanner(ts.ScriptTarget.Latest, true);

/**
 * Scans the node's tokens as the parser read them. A bare scanner knows neither that the `}` closing
 * a `${…}` goes on with template text nor that a `/` starts a regex, and reads the rest as code: an
 * apostrophe in the template or the regex then opens a "string" and `//` a "comment". The AST says
 * where both stand, so the scanner is told to read them again there.
 */
export function forEachToken(
  node: ts.Node,
  sourceFile: ts.SourceFile,
  visit: (kind: ts.SyntaxKind, scanner: ts.Scanner) => void,
  { bare = false }: { bare?: boolean } = {},
): void {
  const templateParts = new Set<number>();
  const regexes = new Set<number>();
  // `bare` scans as older versions did, only to match the hashes they wrote into baselines.
  if (!bare) walk(node, (child) => {
    if (child.kind === ts.SyntaxKind.TemplateMiddle || child.kind === ts.SyntaxKind.TemplateTail) templateParts.add(child.getStart(sourceFile));
    else if (child.kind === ts.SyntaxKind.RegularExpressionLiteral) regexes.add(child.getStart(sourceFile));
  });
  const start = node.getStart(sourceFile);
  scanner.setText(sourceFile.text, start, node.end - start);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const position = scanner.getTokenStart();
    if (kind === ts.SyntaxKind.CloseBraceToken && templateParts.has(position)) kind = scanner.reScanTemplateToken(false);
    else if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && regexes.has(position)) kind = scanner.reScanSlashToken();
    visit(kind, scanner);
  }
}

const templateDelimiters: Partial<Record<ts.SyntaxKind, [string, string]>> = {
  [ts.SyntaxKind.TemplateHead]: ['`', '${'],
  [ts.SyntaxKind.TemplateMiddle]: ['}', '${'],
  [ts.SyntaxKind.TemplateTail]: ['}', '`'],
};

/** A token's text, a name spelled with escapes (`sendMessage\u0053tream`) decoded: prettier writes it plainly. */
export function spelledText(kind: ts.SyntaxKind, scanner: ts.Scanner): string {
  return kind === ts.SyntaxKind.Identifier || kind === ts.SyntaxKind.PrivateIdentifier ? scanner.getTokenValue() : scanner.getTokenText();
}

/** The head, a middle or the tail of a template with `${…}`. */
export function isTemplatePart(kind: ts.SyntaxKind): boolean {
  return templateDelimiters[kind] !== undefined;
}

/**
 * A template part's text as a quoted value between its delimiters: its escapes decoded and its line
 * endings LF (the cooked value), so that a CRLF checkout or a `\x41` written `A` does not change it.
 */
export function templatePartText(kind: ts.SyntaxKind, scanner: ts.Scanner): string | undefined {
  const delimiters = templateDelimiters[kind];
  if (!delimiters) return undefined;
  const value = scanner.getTokenValue().replace(/\r\n?/g, '\n');
  return `${delimiters[0]}${JSON.stringify(value)}${delimiters[1]}`;
}

/**
 * The node's tokens without whitespace or comments, string literals re-quoted and trailing commas
 * dropped, so that a formatter pass (prettier, quote style, line wrapping) leaves it unchanged.
 * Anchors are made of it.
 */
export function normalizedText(node: ts.Node, sourceFile: ts.SourceFile, options: { bare?: boolean } = {}): string {
  const tokens: string[] = [];
  forEachToken(
    node,
    sourceFile,
    (kind, scanner) => {
      if (kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
        tokens.push(JSON.stringify(scanner.getTokenValue()));
      } else {
        // Template text as written, its line breaks spelled `\n`: an anchor stays one line.
        if (options.bare) tokens.push(scanner.getTokenText());
        else tokens.push(isTemplatePart(kind) ? scanner.getTokenText().replace(/\r\n?|\n/g, '\\n') : spelledText(kind, scanner));
      }
    },
    options,
  );
  return joinTokens(tokens);
}

function joinTokens(tokens: string[]): string {
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
