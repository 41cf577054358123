import ts from './typescript.cjs';
import { forEachToken, normalizedText, shortHash, spelledText, templatePartText, walk } from './syntax.js';

/**
 * The hashes a finding's baseline entry is keyed on. `textHash` is of the site's text with what
 * formatters change taken out (see `fingerprintText`). `previousTextHashes` are of the text as
 * older versions hashed it, so that a baseline written by them still matches without a rewrite:
 * they scanned bare, misreading template text after a `${…}` and regexes (see `forEachToken`),
 * and the oldest also kept semicolons, parentheses and quoted keys. Only the ones that differ
 * from `textHash` are kept.
 */
export function textHashesOf(node: ts.Node, sourceFile: ts.SourceFile): { textHash: string; previousTextHashes?: string[] } {
  const textHash = shortHash(fingerprintText(node, sourceFile));
  const previous = [shortHash(fingerprintText(node, sourceFile, { bare: true })), shortHash(normalizedText(node, sourceFile, { bare: true }))];
  const previousTextHashes = [...new Set(previous)].filter((hash) => hash !== textHash);
  return previousTextHashes.length === 0 ? { textHash } : { textHash, previousTextHashes };
}

/**
 * The node's tokens with everything a formatter may change left out, so that prettier or dprint,
 * under any of their options, leaves it unchanged: whitespace and comments, the quote style,
 * trailing commas, semicolons (`semi: false`), the parentheses around a lone arrow parameter
 * (`arrowParens`), quotes around a key that needs none (`quoteProps`), parentheses that change
 * nothing (`retries: (1)`) and the spelling of a number (`0XFF`, `1.50`).
 */
export function fingerprintText(node: ts.Node, sourceFile: ts.SourceFile, options: { bare?: boolean } = {}): string {
  const { dropped, droppedCloseAfter, bareKeys } = formatterChoices(node, sourceFile);
  const tokens: Array<{ text: string; kind: ts.SyntaxKind }> = [];
  const closeAfter = [...droppedCloseAfter].sort((a, b) => a - b);
  forEachToken(node, sourceFile, (kind, scanner) => {
    const position = scanner.getTokenStart();
    if (kind === ts.SyntaxKind.CloseParenToken && closeAfter.length > 0 && position >= closeAfter[0]) {
      closeAfter.shift();
      tokens.push({ text: '', kind });
    } else if (dropped.has(position) || kind === ts.SyntaxKind.SemicolonToken) {
      tokens.push({ text: '', kind });
    } else if (bareKeys.has(position)) {
      tokens.push({ text: scanner.getTokenValue(), kind: ts.SyntaxKind.Identifier });
    } else if (kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      tokens.push({ text: JSON.stringify(scanner.getTokenValue()), kind });
    } else if (kind === ts.SyntaxKind.NumericLiteral) {
      const value = Number(scanner.getTokenValue());
      tokens.push({ text: Number.isFinite(value) ? String(value) : scanner.getTokenText(), kind });
    } else {
      tokens.push({ text: options.bare ? scanner.getTokenText() : (templatePartText(kind, scanner) ?? spelledText(kind, scanner)), kind });
    }
  }, options);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i].text;
    // A trailing comma is judged against the next token as written: `(c,) =>` is `c =>`.
    if (token === '' || (token === ',' && /^[)\]}]$/.test(tokens[i + 1]?.text ?? ''))) continue;
    if (token === ',' && tokens[i + 1]?.text === '' && tokens[i + 1].kind === ts.SyntaxKind.CloseParenToken) continue;
    const previous = out[out.length - 1];
    out.push(previous && /[\w$]$/.test(previous) && /^[\w$]/.test(token) ? ` ${token}` : token);
  }
  return out.join('');
}

/** Token positions a formatter may add or remove: parentheses to drop, and quoted keys to write bare. */
function formatterChoices(root: ts.Node, sourceFile: ts.SourceFile): { dropped: Set<number>; droppedCloseAfter: Set<number>; bareKeys: Set<number> } {
  const dropped = new Set<number>();
  const droppedCloseAfter = new Set<number>();
  const bareKeys = new Set<number>();
  walk(root, (node) => {
    if (ts.isParenthesizedExpression(node) && parenthesesChangeNothing(node)) {
      dropped.add(node.getStart(sourceFile));
      dropped.add(node.end - 1);
    } else if (ts.isArrowFunction(node) && isBareParameter(node) && sourceFile.text[node.parameters.pos - 1] === '(') {
      // The list's `(` ends where the list starts; its `)` is the first one after the parameter.
      dropped.add(node.parameters.pos - 1);
      droppedCloseAfter.add(node.parameters.end);
    } else if (
      (ts.isPropertyAssignment(node) || ts.isMethodDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertySignature(node)) &&
      ts.isStringLiteral(node.name) &&
      /^[A-Za-z_$][\w$]*$/.test(node.name.text)
    ) {
      bareKeys.add(node.name.getStart(sourceFile));
    }
  });
  return { dropped, droppedCloseAfter, bareKeys };
}

/** `(c) => …` that prettier's `arrowParens: "avoid"` writes `c => …`. */
function isBareParameter(arrow: ts.ArrowFunction): boolean {
  if (arrow.parameters.length !== 1 || arrow.typeParameters || arrow.type) return false;
  const [parameter] = arrow.parameters;
  const plain = !parameter.type && !parameter.initializer && !parameter.dotDotDotToken && !parameter.questionToken && !parameter.modifiers;
  return plain && ts.isIdentifier(parameter.name);
}

/** Expressions that read the same with or without parentheses around them, wherever they stand. */
const neverNeedParentheses = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateExpression,
  ts.SyntaxKind.ParenthesizedExpression,
  ts.SyntaxKind.ArrayLiteralExpression,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
]);

/** Nodes whose `expression` is a callee or an object: `(x).m`, `(x)[k]`, `(x)()`, `new (x)()`, `` (x)`t` ``. */
const calleeParents = new Set([
  ts.SyntaxKind.PropertyAccessExpression,
  ts.SyntaxKind.ElementAccessExpression,
  ts.SyntaxKind.CallExpression,
  ts.SyntaxKind.NewExpression,
  ts.SyntaxKind.TaggedTemplateExpression,
]);

/**
 * Parentheses that a formatter may remove because the code means the same without them: around a
 * name, a literal, a member access or a call (except where the member access or the call would
 * then change: `(1).toFixed()`, `new (f())()`, `(a?.b).c`), or around anything but a comma
 * expression where any expression may stand (an argument, an element, a property's value, an
 * initializer, a returned value). Parentheses around an operator inside another operator are
 * kept: whether they change anything depends on precedence, and they are rare in calls.
 */
function parenthesesChangeNothing(node: ts.ParenthesizedExpression): boolean {
  const inner = node.expression;
  const parent = node.parent;
  const isCallee = calleeParents.has(parent.kind) && (parent as { expression?: ts.Node }).expression === node;
  if (neverNeedParentheses.has(inner.kind)) return true;
  if (ts.isNumericLiteral(inner) || ts.isBigIntLiteral(inner)) return !isCallee;
  if (ts.isPropertyAccessExpression(inner) || ts.isElementAccessExpression(inner) || ts.isCallExpression(inner)) {
    return !isCallee || (!ts.isNewExpression(parent) && !ts.isOptionalChain(inner));
  }
  if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.CommaToken) return false;
  if (ts.isArrowFunction(parent) && parent.body === node) return !ts.isObjectLiteralExpression(inner);
  return (
    ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression !== node) ||
    ts.isArrayLiteralExpression(parent) ||
    ts.isSpreadElement(parent) ||
    ts.isTemplateSpan(parent) ||
    ts.isReturnStatement(parent) ||
    ((ts.isPropertyAssignment(parent) || ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isPropertyDeclaration(parent)) &&
      parent.initializer === node)
  );
}
