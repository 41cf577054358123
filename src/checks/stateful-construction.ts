import ts from './typescript.cjs';
import { defineCheck, type Severity } from './define-check.js';
import { reexportAliases } from './export-aliases.js';
import { importedNames } from './imported-names.js';
import { scopeOf, type ScopeKind } from './scope.js';
import { memberName, positionOf, unwrap, walk } from './syntax.js';
import { textHashesOf } from './fingerprint-text.js';
import { processWideHolder, type ProcessWide } from './process-wide.js';

interface State {
  classes: Set<string>;
  factories: Set<string>;
  /** Names the tree re-exports a configured class or factory under (`export { C as Alias } from`), to the configured name. */
  aliases: Map<string, string>;
  /** Text prefilter: a class name where it may be constructed, or a factory's name; a type-only mention of the class does not need a parse. */
  site?: RegExp;
  /** Every name a construction must spell (configured classes and factories, their aliases): a file with none of them needs no parse. */
  names: string[];
}

// module: one instance for the whole process (top level, a static member of a top-level class);
// class-field: one per owner instance; function: built on demand.
const severityOf: Record<ScopeKind, Severity> = { module: 'error', 'class-field': 'warning', function: 'note' };

export default defineCheck<'stateful-construction', State>({
  id: 'stateful-construction',
  title: 'Construction of a stateful object',
  description:
    'Every place a stateful object (e.g. FileReadTracker) is built, with its enclosing scope. Built at module top level it is a process-wide singleton shared by every agent (error); in a class field, one per owner instance (warning); in a function, built on demand (note, listed in the inventory).',
  defaultSeverity: 'error',
  needsTypes: () => false,
  prepare: ({ options, files }) => {
    const aliases = reexportAliases(files, new Set([...options.classes, ...options.factories]));
    const aliasesOf = (names: string[]) => [...aliases].filter(([, original]) => names.includes(original)).map(([alias]) => alias);
    return {
      classes: new Set(options.classes),
      factories: new Set(options.factories),
      aliases,
      site: sitePattern({ classes: [...options.classes, ...aliasesOf(options.classes)], factories: [...options.factories, ...aliasesOf(options.factories)] }),
      names: [...options.classes, ...options.factories, ...aliases.keys()],
    };
  },
  // The pattern's comment clauses (a comment right after `new` or a member's `.`) match any comment
  // line ending in a full stop followed by another: the name must also be in the text (escapes are
  // decoded in it, see `searchableText`), or most files of a commented codebase would be parsed.
  wants: (text, state) => state.names.some((name) => text.includes(name)) && Boolean(state.site?.test(text)),
  visit(unit, ctx, state) {
    const sourceFile = unit.sourceFile;
    const nameOf = importedNames(sourceFile);
    walk(sourceFile, (node) => {
      const site = constructionSite(node, state, nameOf);
      if (site) {
        const scope = scopeOf(node);
        // Built in a function, but kept for the whole process: a lazy or init-function singleton.
        const holder = scope.kind === 'function' ? processWideHolder(node as ts.Expression, sourceFile) : undefined;
        const kind: ScopeKind = holder ? 'module' : scope.kind;
        ctx.report({
          file: unit.file,
          ...positionOf(site.token, sourceFile),
          message: holder ? singletonMessage(site.name, site.via, scope.name, holder) : messageFor(site.name, site.via, scope.kind, scope.name),
          severity: severityOf[kind],
          scope: scope.name,
          anchor: site.via === 'new' ? `new ${site.name}` : site.name,
          ...textHashesOf(node, sourceFile),
          resolution: 'syntactic',
          details: { className: site.name, via: site.via, scopeKind: kind, ...(holder ? { singleton: holder.how } : {}) },
        });
      }
    });
  },
});

/**
 * Sound for what `constructionSite` matches: a class name right after `new` or `(` (`new (C)()`),
 * after a type assertion's `>`, as a member (`ns.C`, `ns['C']`), or renamed on import (`C as
 * Local`, `"C" as Local`); a factory's name anywhere. Other mentions of a class (`: C`,
 * `implements C`, `import type { C }`) cannot be constructions. Before the name only spaces are
 * looked through: a comment inside the look-behind is matched back at every mention of a class
 * (quadratic on a long line of type mentions). Instead, a comment right after `new`,
 * `new (` or a member's `.`, or between `[` and a quote, lets the file through whatever follows.
 */
function sitePattern(options: { classes: string[]; factories: string[] }): RegExp | undefined {
  const anyOf = (names: string[]) => `(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
  const after = String.raw`(?:\s|/\*[^]*?\*/|//[^\n]*)*`;
  const parts: string[] = [];
  if (options.classes.length) {
    const classes = anyOf(options.classes);
    // The name first, then a look around it: a pattern that starts with the names is what keeps the scan fast.
    parts.push(`${classes}(?:(?<=(?:\\bnew|[(>.]|\\[\\s*['"\`])\\s*${classes})|(?=['"]?${after}as(?![\\w$])))(?![\\w$])`);
    parts.push(String.raw`(?:\bnew[\s(]*|\.\s*)(?://|/\*)|\[\s*(?:/\*[^]*?\*/|//[^\n]*)(?:\s|/\*[^]*?\*/|//[^\n]*)*['"\`]`);
  }
  if (options.factories.length) parts.push(`${anyOf(options.factories)}(?![\\w$])`);
  return parts.length ? new RegExp(parts.join('|')) : undefined;
}

function constructionSite(node: ts.Node, state: State, nameOf: (identifier: ts.Identifier) => string): { name: string; token: ts.Node; via: 'new' | 'factory' } | undefined {
  const isNew = ts.isNewExpression(node);
  if (!isNew && !ts.isCallExpression(node)) return undefined;
  const callee = unwrap(node.expression);
  const names = isNew ? state.classes : state.factories;
  const via = isNew ? 'new' : 'factory';
  if (ts.isIdentifier(callee)) {
    let name = nameOf(callee);
    // A name the tree re-exports a configured one under counts where this file imports it.
    if (!names.has(name) && state.aliases.has(name) && importsName(callee.getSourceFile(), name)) name = state.aliases.get(name)!;
    return names.has(name) ? { name, token: callee, via } : undefined;
  }
  const member = memberName(callee);
  if (member && names.has(member.name)) return { name: member.name, token: member.token, via };
  return undefined;
}

/**
 * Whether an import from the tree's own files binds `name` as the exported name (`import { name }`,
 * `import { name as local }`). A package's export of that name (`import { Tracker } from 'lib'`)
 * is not the tree's barrel; a path alias (`@/tools`, `~/tools`, `#tools`) may be.
 */
function importsName(sourceFile: ts.SourceFile, name: string): boolean {
  return sourceFile.statements.some((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !/^(?:\.|\/|#|~\/|@\/)/.test(statement.moduleSpecifier.text)) return false;
    const bindings = statement.importClause?.namedBindings;
    return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.some((element) => (element.propertyName ?? element.name).text === name);
  });
}

function messageFor(name: string, via: 'new' | 'factory', kind: ScopeKind, scope: string): string {
  const built = via === 'new' ? `${name} built` : `${name}() builds stateful objects`;
  const where = scope === '<module>' ? 'at module top level' : `in static field ${scope}`;
  if (kind === 'module') return `${built} ${where}: one instance shared by the whole process; build it per agent and pass it in`;
  if (kind === 'class-field') return `${built} in field initializer ${scope}: one per ${scope.split('.')[0]} instance`;
  return `${built} in ${scope}`;
}

function singletonMessage(name: string, via: 'new' | 'factory', scope: string, holder: ProcessWide): string {
  const built = via === 'new' ? `${name} built` : `${name}() called`;
  const kept = holder.how === 'lazy' ? `kept in module-level ${holder.variable} (a lazy singleton)` : `whose result the module keeps (${holder.fn}() at line ${holder.line})`;
  return `${built} in ${scope}, ${kept}: one instance shared by the whole process; build it per agent and pass it in`;
}
