// TypeScript's 9 MB typescript.js is loaded through CommonJS on purpose (an ESM `import` makes
// Node scan it for named exports: ~0.6 s), and compiled with a V8 code cache kept in the OS temp
// dir, since Node 20 has no compile cache of its own: loading it drops from ~210 to ~100 ms
// (measured). The cached module goes into require.cache, so `require('typescript')` below and
// anywhere else returns it. A missing, stale or rejected cache only costs that time.
import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');
import vm = require('node:vm');
import NodeModule = require('node:module');

function primeTypeScript(): void {
  const file = require.resolve('typescript');
  if (require.cache[file]) return;
  const version = (require('typescript/package.json') as { version: string }).version;
  const cacheFile = path.join(os.tmpdir(), `trajaudit-v8-typescript-${version}-${process.version}-${process.arch}.cache`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = fs.readFileSync(file, 'utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const loaded = new NodeModule(file, module);
  loaded.filename = file;
  loaded.paths = (NodeModule as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  script.runInThisContext()(loaded.exports, NodeModule.createRequire(file), loaded, file, path.dirname(file));
  loaded.loaded = true;
  require.cache[file] = loaded;
  if (cachedData === undefined || script.cachedDataRejected) {
    // Written at exit, so the cache also holds the parser functions this run compiled.
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
      } catch {
        // A read-only temp dir only means no cache next time.
      }
    });
  }
}

try {
  primeTypeScript();
} catch {
  // Fall back to Node's own loader below.
}
import ts = require('typescript');
export = ts;
