import ts from './typescript.cjs';

type Container = ts.ClassLikeDeclaration | ts.InterfaceDeclaration | ts.TypeLiteralNode | ts.ObjectLiteralExpression;

/**
 * Names of the class/interface that declares `symbol` and of every type it extends or implements.
 * Empty when the symbol has no declaration inside a named type.
 */
export function declaringTypeNames(symbol: ts.Symbol, checker: ts.TypeChecker): Set<string> {
  const names = new Set<string>();
  for (const declaration of symbol.declarations ?? []) {
    const container = declaration.parent as ts.Node | undefined;
    if (container && isContainer(container)) addHeritage(container, checker, names, new Set());
  }
  return names;
}

function isContainer(node: ts.Node): node is Container {
  return ts.isClassLike(node) || ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node) || ts.isObjectLiteralExpression(node);
}

function addHeritage(node: Container, checker: ts.TypeChecker, names: Set<string>, seen: Set<ts.Node>): void {
  if (seen.has(node)) return;
  seen.add(node);
  const name = containerName(node);
  if (name) names.add(name);
  if (!ts.isClassLike(node) && !ts.isInterfaceDeclaration(node)) return;
  for (const clause of node.heritageClauses ?? []) {
    for (const type of clause.types) {
      let symbol = checker.getSymbolAtLocation(type.expression);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (!symbol) names.add(type.expression.getText());
      for (const declaration of symbol?.declarations ?? []) {
        if (isContainer(declaration)) addHeritage(declaration, checker, names, seen);
        else if (ts.isTypeAliasDeclaration(declaration) && ts.isTypeLiteralNode(declaration.type)) {
          addHeritage(declaration.type, checker, names, seen);
        }
      }
    }
  }
}

function containerName(node: Container): string | undefined {
  if ((ts.isClassLike(node) || ts.isInterfaceDeclaration(node)) && node.name) return node.name.text;
  if (ts.isTypeLiteralNode(node) && ts.isTypeAliasDeclaration(node.parent)) return node.parent.name.text;
  return undefined;
}
