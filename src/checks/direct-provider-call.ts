import picomatch from 'picomatch';
import ts from './typescript.cjs';
import { defineCheck, type CheckContext, type Resolution } from './define-check.js';
import { declaringTypeNames } from './receiver-types.js';
import { scopeOf } from './scope.js';
import { anchorText, destructuringAssignmentOf, isWrapper, memberName, normalizedText, outermostWrapper, positionOf, walk } from './syntax.js';
import { textHashesOf } from './fingerprint-text.js';
import { typeReach } from './type-program.js';
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
        ...textHashesOf(site, sourceFile),
        resolution,
        allowReason,
        details: { form },
      });
    };
    const inspect = (name: ts.Identifier | ts.PrivateIdentifier | ts.StringLiteralLike): void => {
      const found = siteOf(name);
      if (!found || isDeclarationOnly(name)) return;
      const { form, node, receiver } = found;
      const key = ts.isComputedPropertyName(name.parent) ? name.parent : name;
      const resolution =
        form === 'destructure'
          ? ts.isBindingElement(key.parent)
            ? resolveDestructured(ctx, key.parent.parent as ts.ObjectBindingPattern, name.text)
            : resolveAssignmentPattern(ctx, key as ts.PropertyName, key.parent.parent as ts.ObjectLiteralExpression, name.text)
          : resolve(ctx, name, receiver);
      if (resolution) site(form, name, node, normalizedText(receiver, sourceFile), name.text, resolution);
    };
    // Every form has the method's name as a token: look at those, and at their context only.
    walk(sourceFile, (node) => {
      if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteralLike(node)) && state.methods.has(node.text)) inspect(node);
    });
  },
});

/**
 * The site a method-name token belongs to: the call through it, the .bind/.call/.apply call, the
 * destructuring, or another use that takes the method off its receiver; undefined for the rest
 * (a definition, a write, a test, a plain identifier).
 */
function siteOf(name: ts.Identifier | ts.PrivateIdentifier | ts.StringLiteralLike): { form: Form; node: ts.Node; receiver: ts.Node } | undefined {
  // A computed key spelled as a string (`{ ['sendMessageStream']: local }`) is the key itself; a
  // variable of that name (`{ [sendMessageStream]: h }`, a Symbol, say) is not.
  if (ts.isComputedPropertyName(name.parent) && !ts.isStringLiteralLike(name)) return undefined;
  const key: ts.Node = ts.isComputedPropertyName(name.parent) ? name.parent : name;
  const parent = key.parent;
  if (ts.isBindingElement(parent) && (parent.propertyName ?? parent.name) === key && ts.isObjectBindingPattern(parent.parent) && !parent.dotDotDotToken) {
    if (isOmitted(parent)) return undefined;
    const declaration = ts.findAncestor(parent, (n) => ts.isVariableDeclaration(n) || ts.isParameter(n)) ?? parent;
    const source = ts.isVariableDeclaration(declaration) && declaration.initializer ? declaration.initializer : parent.parent;
    return { form: 'destructure', node: declaration, receiver: source };
  }
  if ((ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) && parent.name === key && ts.isObjectLiteralExpression(parent.parent)) {
    const assignment = destructuringAssignmentOf(parent.parent);
    if (!assignment) return undefined;
    return { form: 'destructure', node: assignment, receiver: ts.isBinaryExpression(assignment) ? assignment.right : assignment.expression };
  }
  // The key of an element access may be wrapped: `p[('m')]`, `p['m' as const]`.
  const literal = ts.isStringLiteralLike(name) ? outermostWrapper(name) : undefined;
  const access = ts.isPropertyAccessExpression(parent) && parent.name === name
    ? parent
    : literal && ts.isElementAccessExpression(literal.parent) && literal.parent.argumentExpression === literal ? literal.parent : undefined;
  if (!access) return undefined;
  const outer = outermostWrapper(access);
  const use = outer.parent;
  // A tagged template (`` p.m`q` ``) calls the method with `this` = p, like `p.m(…)`.
  if ((ts.isCallExpression(use) && use.expression === outer) || (ts.isTaggedTemplateExpression(use) && use.tag === outer)) {
    return { form: 'call', node: use, receiver: access.expression };
  }
  if ((ts.isPropertyAccessExpression(use) || ts.isElementAccessExpression(use)) && use.expression === outer) {
    const member = memberName(use);
    const rebinder = outermostWrapper(use);
    if (member && rebinders.has(member.name) && ts.isCallExpression(rebinder.parent) && rebinder.parent.expression === rebinder) {
      return { form: 'bind', node: rebinder.parent, receiver: access.expression };
    }
  }
  return isTakenOff(access) ? { form: 'reference', node: access, receiver: access.expression } : undefined;
}

/**
 * The "omit a key" idiom, `const { sendMessageStream: _omit, ...settings } = p`: next to a rest
 * element, a binding the code never uses again only keeps the method out of the copy. Any other
 * mention of that name in the enclosing function (or file) counts as a use, shadowing or not.
 */
function isOmitted(element: ts.BindingElement): boolean {
  const local = element.name;
  const pattern = element.parent as ts.ObjectBindingPattern;
  if (!ts.isIdentifier(local) || !pattern.elements.some((other) => other.dotDotDotToken)) return false;
  const scope = ts.findAncestor(pattern, (node) => ts.isFunctionLike(node) || ts.isSourceFile(node)) ?? element.getSourceFile();
  let used = false;
  walk(scope, (node) => {
    if (used) return false;
    if (ts.isIdentifier(node) && node !== local && node.text === local.text) used = true;
  });
  return !used;
}

/** Declarations are not calls: a token inside a type, a signature without a body, or a `declare` declaration. */
function isDeclarationOnly(token: ts.Node): boolean {
  for (let node = token.parent; node; node = node.parent) {
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return true;
    if (ts.isFunctionLike(node) && !(node as ts.FunctionLikeDeclaration).body) return true;
    if (ts.canHaveModifiers(node) && node.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) return true;
  }
  return false;
}

/**
 * Whether a member read other than by a call takes the method off its receiver: its value is
 * stored (a variable, a field, a parameter's default, the right of an assignment, an export),
 * returned, called through a comma (`(0, p.m)()`) or given to `Reflect.apply`, directly or through
 * a cast, `?:`, `??`, `||`, an array or an object literal. Any other use only looks at it and is
 * not a finding: a test (`typeof`, `!`, `===`, a condition, `&&`), a callback's result as in
 * `list.filter((p) => p.m)` (the callee decides what it does with it, and a filter only tests
 * it), a property of the method (`.length`, a mock's `.mock`), a cast through `unknown` (`p.m as
 * unknown as Mock`: the value is re-typed as something else, a test's way to reach a mock), or an
 * argument (mocks and assertions in tests: `vi.mocked(p.m)`, `expect(p.m)`). A miss costs less
 * than a false finding: a guard that fails correct code gets turned off.
 */
function isTakenOff(start: ts.Expression): boolean {
  let value: ts.Node = start;
  for (;;) {
    const parent = value.parent;
    if (isCastThroughUnknown(parent)) return false;
    if (isWrapper(parent)) value = parent;
    else if (ts.isConditionalExpression(parent) && parent.condition !== value) value = parent;
    else if (ts.isBinaryExpression(parent) && valueOperators.has(parent.operatorToken.kind)) value = parent;
    else if (ts.isArrayLiteralExpression(parent) && !destructuringAssignmentOf(parent)) value = parent;
    else if (ts.isPropertyAssignment(parent) && parent.initializer === value && !destructuringAssignmentOf(parent.parent)) value = parent.parent;
    else break;
  }
  const parent = value.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent)) &&
    parent.initializer === value
  ) {
    return true;
  }
  if (ts.isExportAssignment(parent)) return true;
  if (ts.isReturnStatement(parent)) {
    const fn = ts.findAncestor(parent, ts.isFunctionLike);
    return !fn || !isCallback(fn);
  }
  if (ts.isArrowFunction(parent) && parent.body === value) return !isCallback(parent);
  if (ts.isBinaryExpression(parent) && parent.right === value) {
    const operator = parent.operatorToken.kind;
    if (operator >= ts.SyntaxKind.FirstAssignment && operator <= ts.SyntaxKind.LastAssignment) return true;
    if (operator === ts.SyntaxKind.CommaToken) {
      const callee = outermostWrapper(parent);
      return ts.isCallExpression(callee.parent) && callee.parent.expression === callee;
    }
  }
  if (ts.isCallExpression(parent) && parent.arguments[0] === value) {
    const callee = memberName(parent.expression);
    return callee?.name === 'apply' && ts.isPropertyAccessExpression(parent.expression) && ts.isIdentifier(parent.expression.expression) && parent.expression.expression.text === 'Reflect';
  }
  return false;
}

/** `x as unknown as T`, `<any>x`: the inner cast that lets the outer one re-type the value as anything. */
function isCastThroughUnknown(node: ts.Node): boolean {
  if (!ts.isAsExpression(node) && !ts.isTypeAssertionExpression(node)) return false;
  return node.type.kind === ts.SyntaxKind.UnknownKeyword || node.type.kind === ts.SyntaxKind.AnyKeyword;
}

/** A function written as an argument of a call (`list.filter((p) => …)`): its result goes to the callee. */
function isCallback(fn: ts.Node): boolean {
  if (!ts.isArrowFunction(fn) && !ts.isFunctionExpression(fn)) return false;
  const outer = outermostWrapper(fn);
  const call = outer.parent;
  return (ts.isCallExpression(call) || ts.isNewExpression(call)) && (call.arguments?.some((argument) => argument === outer) ?? false);
}

/** Operators through which an operand's value can be the result. */
const valueOperators = new Set([ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);

/** undefined: the checker proved the receiver is not a configured type, so this is not a finding. */
function resolve(ctx: CheckContext<Options>, token: ts.Node, receiver: ts.Node): Resolution | undefined {
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
  if (isNeverCallable(ctx.checker!.getTypeOfSymbol(symbol))) return undefined;
  if (ctx.options.receiverTypes.length === 0) return 'resolved';
  const names = declaringTypeNames(symbol, ctx.checker!);
  if (names.size === 0) return 'unresolved';
  return ctx.options.receiverTypes.some((type) => names.has(type)) ? 'resolved' : undefined;
}

/**
 * A property the checker types as something that cannot be called (`stream?: boolean` next to a
 * configured method `stream`): reading it takes no method off anything. Only a type known all
 * through: any, unknown or a type parameter may still be a function, and stays a finding.
 */
function isNeverCallable(type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  const unknowable = ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TypeVariable | ts.TypeFlags.Index | ts.TypeFlags.Conditional | ts.TypeFlags.Substitution | ts.TypeFlags.Intersection;
  return parts.every((part) => !(part.flags & unknowable) && part.getCallSignatures().length === 0);
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
  return `${what}; the type checker could not resolve the receiver (${typeReach}), so it may or may not be ${types}`;
}
