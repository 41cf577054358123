// Preloaded into the CLI (node --import) by the discovery-race test: an entry whose name starts
// with "vanished-" is listed by readdir but gone by the time it is resolved or opened, as when
// sid-code prunes a session while trajaudit discovers the home.
import fs from 'node:fs';
import path from 'node:path';

const gone = (p) => path.basename(String(p)).startsWith('vanished-') || String(p).includes(`${path.sep}vanished-`);
const enoent = (syscall, p) => Object.assign(new Error(`ENOENT: no such file or directory, ${syscall} '${p}'`), { code: 'ENOENT', syscall, path: String(p) });
const realpath = fs.realpathSync.native;
fs.realpathSync.native = (p, ...rest) => {
  if (gone(p)) throw enoent('realpath', p);
  return realpath(p, ...rest);
};
const access = fs.accessSync;
fs.accessSync = (p, ...rest) => {
  if (gone(p)) throw enoent('access', p);
  return access(p, ...rest);
};
const lstat = fs.lstatSync;
fs.lstatSync = (p, options) => (gone(p) ? (options?.throwIfNoEntry === false ? undefined : (() => { throw enoent('lstat', p); })()) : lstat(p, options));
