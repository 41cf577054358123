// TypeScript's 9 MB typescript.js is loaded through CommonJS on purpose (an ESM `import` makes
// Node scan it for named exports, which is slow), and compiled with a V8 code cache kept in the OS
// temp dir, since Node 20 has no compile cache of its own: that about halves its load time. The
// cached module goes into require.cache, so `require('typescript')` below and anywhere else
// returns it. A missing, stale, rejected or damaged cache only costs that time.
import crypto = require('node:crypto');
import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');
import vm = require('node:vm');
import NodeModule = require('node:module');

/**
 * The cache file for this typescript install, in a directory of the current user that nobody
 * else can write; undefined when no such directory can be had. The name holds a hash of the
 * install's real path, so two installs (or checkouts) never share a cache.
 */
function cacheFileFor(file: string, version: string): string | undefined {
  const uid = process.getuid?.();
  const dir = path.join(os.tmpdir(), `trajaudit-v8-cache-${uid ?? os.userInfo().username}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0))) return undefined;
  const install = crypto.createHash('sha256').update(fs.realpathSync(file)).digest('hex').slice(0, 12);
  return path.join(dir, `typescript-${version}-${install}-${process.version}-${process.arch}.cache`);
}

/**
 * V8 verifies the checksum of cached data only in debug builds: bytes damaged on disk crash the
 * process with a fatal error (exit 133) rather than being rejected. So the file starts with a
 * SHA-256 of the data (cheap next to the compile it saves), and a cache that fails it counts as
 * missing.
 */
const digestLength = 32;
const digestOf = (data: Uint8Array): Buffer => crypto.createHash('sha256').update(data).digest();

/** The cache's data, unless the file is missing, a link, owned by another user, or damaged. */
function readCache(cacheFile: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(cacheFile, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid)) return undefined;
    const bytes = fs.readFileSync(fd);
    const data = bytes.subarray(digestLength);
    return bytes.length > digestLength && digestOf(data).equals(bytes.subarray(0, digestLength)) ? data : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function primeTypeScript(): void {
  const file = require.resolve('typescript');
  if (require.cache[file]) return;
  const version = (require('typescript/package.json') as { version: string }).version;
  const cacheFile = cacheFileFor(file, version);
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const source = fs.readFileSync(file, 'utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const loaded = new NodeModule(file, module);
  loaded.filename = file;
  loaded.paths = (NodeModule as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  script.runInThisContext()(loaded.exports, NodeModule.createRequire(file), loaded, file, path.dirname(file));
  loaded.loaded = true;
  require.cache[file] = loaded;
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) {
    // Written at exit, so the cache also holds the parser functions this run compiled.
    process.once('exit', () => {
      const tmp = `${cacheFile}.${process.pid}`;
      try {
        const data = script.createCachedData();
        fs.writeFileSync(tmp, Buffer.concat([digestOf(data), data]), { mode: 0o600, flag: 'wx' });
        fs.renameSync(tmp, cacheFile);
      } catch {
        // A read-only temp dir only means no cache next time.
        fs.rmSync(tmp, { force: true });
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
