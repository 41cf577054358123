// Loaded through require on purpose: an ESM `import` of the 9 MB typescript.js makes Node scan it
// for named exports, which costs ~0.6 s of start-up on every check run.
import ts = require('typescript');
export = ts;
