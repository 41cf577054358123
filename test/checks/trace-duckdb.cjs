// Preloaded with `node -r`: records any module or native addon whose path mentions duckdb.
const Module = require('node:module');
const seen = [];
const originalLoad = Module._load;
Module._load = function (request, ...rest) {
  if (/duckdb/i.test(request)) seen.push(request);
  return originalLoad.call(this, request, ...rest);
};
const originalDlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  if (/duckdb/i.test(filename)) seen.push(filename);
  return originalDlopen.call(this, module, filename, ...rest);
};
process.on('exit', () => {
  if (seen.length) process.stderr.write(`DUCKDB-LOADED ${seen.join(' ')}\n`);
});
