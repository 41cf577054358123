import picomatch from 'picomatch';
import ts from './typescript.cjs';
import { defineCheck, type CheckContext, type Resolution } from './define-check.js';
import { declaringTypeNames } from './receiver-types.js';
import { scopeOf } from './scope.js';
import { anchorText, destructuringAssignmentOf, memberName, normalizedText, outermostWrapper, positionOf, shortHash, unwrap, walk } from './syntax.js';
import type { TrajauditConfig } from '../config/schema.js';

type Options = TrajauditConfig['rules']['direct-provider-call'];
type Form = 'call' | 'bind' | 'destructure' | 'reference';

interface State {
  methods: Set<string>;
  isAllowedPath: (file: string) => boolean;
  allow: Array<{ matches: (file: string) => boolean; reason: string }>;
}

const rebinders = new Set(['bind', 'call', 'apply']);

export default defineCheck<'direct-provider-call', State>({
  id: 'direct-provider-call',
  title: 'Direct provider call outside the resilience layer',
  description:
    'A provider method (e.g. sendMessageStream) called, bound, destructured or otherwise taken off its receiver outside the allowed layer. Every model call must go through the one resilience funnel (retries, timeouts, telemetry); a direct call silently skips it.',
  defaultSeverity: 'error',
  needsTypes: (options, typesFlag) => typesFlag || options.receiverTypes.length > 0,
  prepare: ({ options }) => ({
    methods: new Set(options.methods),
    isAllowedPath: picomatch(options.allowedPaths.length ? options.allowedPaths : ['\0none'], { dot: true }),
    allow: options.allow.map((entry) => ({ matches: picomatch(entry.path, { dot: true }), reason: entry.reason })),
  }),
  wants: (text, state) => [...state.methods].some((method) => text.includes(method)),
  visit(unit, ctx, state) {
    if (state.isAllowedPath(unit.file)) return;
    const sourceFile = unit.sourceFile;
    const allowReason = state.allow.find((entry) => entry.matches(unit.file))?.reason;
    const site = (form: Form, token: ts.Node, site: ts.Node, receiverText: string, name: string, resolution: Resolution) => {
      const anchor = `${anchorText(receiverText)}.${name}`;
      ctx.report({
        file: unit.file,
        ...positionOf(token, sourceFile),
        message: messageFor(form, name, ctx.options, resolution),
        severity: 'error',
        scope: scopeOf(site).name,
        anchor,
        textHash: shortHash(normalizedText(site, sourceFile)),
        resolution,
        allowReason,
        details: { form },
      });
    };
    walk(sourceFile, (node) => {
      // Declarations are not calls: types, `declare` declarations, and signatures without a body.
      if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return false;
      if (ts.isFunctionLike(node) && !(node as ts.FunctionLikeDeclaration).body) return false;
      if (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) return false;
      if (ts.isCallExpression(node)) {
        const callee = unwrap(node.expression);
        const member = memberName(callee);
        if (member && state.methods.has(member.name)) {
          const resolution = resolve(ctx, member.token, member.receiver);
          if (resolution) site('call', member.token, node, normalizedText(member.receiver, sourceFile), member.name, resolution);
        } else if (member && rebinders.has(member.name)) {
          const inner = memberName(unwrap(member.receiver));
          if (inner && state.methods.has(inner.name)) {
            const resolution = resolve(ctx, inner.token, inner.receiver);
            if (resolution) site('bind', inner.token, node, normalizedText(inner.receiver, sourceFile), inner.name, resolution);
          }
        }
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent) && !node.dotDotDotToken) {
        const key = node.propertyName ?? node.name;
        const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : undefined;
        if (name && state.methods.has(name)) {
          const resolution = resolveDestructured(ctx, node.parent, name);
          const declaration = ts.findAncestor(node, (n) => ts.isVariableDeclaration(n) || ts.isParameter(n)) ?? node;
          const source = ts.isVariableDeclaration(declaration) && declaration.initializer ? declaration.initializer : node.parent;
          if (resolution) site('destructure', key, declaration, normalizedText(source, sourceFile), name, resolution);
        }
      } else if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const member = memberName(node);
        if (member && state.methods.has(member.name) && isTakenOff(node)) {
          const resolution = resolve(ctx, member.token, member.receiver);
          if (resolution) site('reference', member.token, node, normalizedText(member.receiver, sourceFile), member.name, resolution);
        }
      } else if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isObjectLiteralExpression(node.parent)) {
        const name = ts.isIdentifier(node.name) || ts.isStringLiteralLike(node.name) ? node.name.text : undefined;
        const assignment = name && state.methods.has(name) ? destructuringAssignmentOf(node.parent) : undefined;
        if (name && assignment) {
          const resolution = resolveAssignmentPattern(ctx, node.name, node.parent, name);
          const source = ts.isBinaryExpression(assignment) ? assignment.right : assignment.expression;
          if (resolution) site('destructure', node.name, assignment, normalizedText(source, sourceFile), name, resolution);
        }
      }
    });
  },
});

/**
 * Whether the method leaves its receiver here: any value use but a call through it or through
 * .bind/.call/.apply (reported as such), a write (a definition), or a test that only looks at it
 * (`typeof`, `!`, `===`, a condition, the left of `&&`) or discards it (`delete`, `void`, a statement).
 */
function isTakenOff(access: ts.Expression): boolean {
  const outer = outermostWrapper(access);
  const parent = outer.parent;
  if (ts.isCallExpression(parent)) return parent.expression !== outer;
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === outer) {
    const member = memberName(parent);
    const rebinder = outermostWrapper(parent);
    if (member && rebinders.has(member.name) && ts.isCallExpression(rebinder.parent) && rebinder.parent.expression === rebinder) return false;
  }
  if (ts.isTypeOfExpression(parent) || ts.isDeleteExpression(parent) || ts.isVoidExpression(parent) || ts.isExpressionStatement(parent)) return false;
  if (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) return false;
  if (ts.isBinaryExpression(parent)) {
    const operator = parent.operatorToken.kind;
    if (parent.left === outer && operator >= ts.SyntaxKind.FirstAssignment && operator <= ts.SyntaxKind.LastAssignment) return false;
    if (parent.left === outer && operator === ts.SyntaxKind.AmpersandAmpersandToken) return false;
    if (comparisons.has(operator)) return false;
  }
  if (ts.isIfStatement(parent) || ts.isWhileStatement(parent) || ts.isDoStatement(parent)) return false;
  if ((ts.isConditionalExpression(parent) || ts.isForStatement(parent)) && parent.condition === outer) return false;
  // A target inside an assignment pattern: `({ a: x.sendMessageStream } = value)`.
  if (ts.isPropertyAssignment(parent) && parent.initializer === outer && destructuringAssignmentOf(parent.parent)) return false;
  if ((ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent)) && destructuringAssignmentOf(parent)) return false;
  return true;
}

const comparisons = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** undefined: the checker proved the receiver is not a configured type, so this is not a finding. */
function resolve(ctx: CheckContext<Options>, token: ts.Node, receiver: ts.Expression): Resolution | undefined {
  if (!ctx.checker) return 'syntactic';
  let symbol = ctx.checker.getSymbolAtLocation(token);
  if (!symbol) {
    const type = ctx.checker.getTypeAtLocation(receiver);
    const name = ts.isIdentifier(token) || ts.isStringLiteralLike(token) ? token.text : '';
    symbol = type && !(type.flags & ts.TypeFlags.Any) ? type.getProperty(name) : undefined;
  }
  return judge(ctx, symbol);
}

function resolveDestructured(ctx: CheckContext<Options>, pattern: ts.ObjectBindingPattern, name: string): Resolution | undefined {
  if (!ctx.checker) return 'syntactic';
  const type = ctx.checker.getTypeAtLocation(pattern);
  return judge(ctx, type.flags & ts.TypeFlags.Any ? undefined : type.getProperty(name));
}

function resolveAssignmentPattern(ctx: CheckContext<Options>, key: ts.PropertyName, pattern: ts.ObjectLiteralExpression, name: string): Resolution | undefined {
  if (!ctx.checker) return 'syntactic';
  if (ts.isIdentifier(key)) return judge(ctx, ctx.checker.getPropertySymbolOfDestructuringAssignment(key));
  const type = ctx.checker.getTypeAtLocation(pattern);
  return judge(ctx, type.flags & ts.TypeFlags.Any ? undefined : type.getProperty(name));
}

function judge(ctx: CheckContext<Options>, symbol: ts.Symbol | undefined): Resolution | undefined {
  // Never silently clean: a site the checker cannot place is reported, marked unresolved.
  if (!symbol || !symbol.declarations?.length) return 'unresolved';
  if (ctx.options.receiverTypes.length === 0) return 'resolved';
  const names = declaringTypeNames(symbol, ctx.checker!);
  if (names.size === 0) return 'unresolved';
  return ctx.options.receiverTypes.some((type) => names.has(type)) ? 'resolved' : undefined;
}

function messageFor(form: Form, name: string, options: Options, resolution: Resolution): string {
  const layer = options.allowedPaths.length ? ` (allowed only in ${options.allowedPaths.join(', ')})` : '';
  const what = {
    call: `direct call to ${name}() bypasses the resilience funnel${layer}`,
    bind: `${name} taken off its receiver with .bind/.call/.apply bypasses the resilience funnel${layer}`,
    destructure: `${name} destructured from its receiver: calls through it bypass the resilience funnel${layer}`,
    reference: `${name} taken off its receiver: calls through it bypass the resilience funnel${layer}`,
  }[form];
  if (resolution !== 'unresolved') return what;
  const types = options.receiverTypes.length ? options.receiverTypes.join(' | ') : 'a provider';
  return `${what}; the type checker could not resolve the receiver, so it may or may not be ${types}`;
}
