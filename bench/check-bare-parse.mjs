// Reference point: a bare ts.createSourceFile + full AST walk over every .ts file under a dir.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ts = createRequire(import.meta.url)('typescript');
const files = [];
const walkDir = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) walkDir(abs);
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name)) files.push(abs);
  }
};
walkDir(process.argv[2]);
let calls = 0;
for (const file of files) {
  const sourceFile = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isCallExpression(node)) calls++;
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
}
process.stdout.write(`${files.length} files, ${calls} calls\n`);
