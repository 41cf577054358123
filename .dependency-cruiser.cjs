// The architecture, checked by `npm test` (npm run lint:deps). Layers, top to bottom:
//   cli.ts (the bin) → main.ts (the CLI as a function) → commands/ → the features (discover,
//   ingest, queries, report, timeline, checks, baseline, config, leak, …, and formats/<name>/)
//   → db/ and render/ → the leaf modules at the top of src/ (errors.ts, environment.ts, …).
// Imports go down, never up; the rules below say where each layer may not reach.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Modules form no cycle at run time (a type-only import is no edge).', from: { path: '^src/' }, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
    { name: 'bin-is-the-top', severity: 'error', comment: 'Nothing imports the bin.', from: {}, to: { path: '^src/cli\\.ts$' } },
    { name: 'main-only-from-the-bin', severity: 'error', comment: 'main.ts is the CLI for the bin (and the tests), not a library for src/.', from: { path: '^src/', pathNot: '^src/cli\\.ts$' }, to: { path: '^src/main\\.ts$' } },
    { name: 'commands-only-from-main', severity: 'error', comment: 'A command is run by main.ts; the layers below it do not call commands.', from: { path: '^src/', pathNot: '^src/(main\\.ts|commands/)' }, to: { path: '^src/commands/' } },
    {
      name: 'commands-load-lazily',
      severity: 'error',
      comment: 'main.ts imports command modules (and DuckDB) on demand, so that --help and check start without DuckDB.',
      from: { path: '^src/main\\.ts$' },
      to: { path: '^src/(commands|db)/|@duckdb', dynamic: false },
    },
    {
      name: 'check-never-reaches-duckdb',
      severity: 'error',
      comment: 'The CI guard starts fast: nothing `check` runs loads DuckDB, even through other modules.',
      from: { path: '^src/commands/(check|run-check|check-in-worker|check-worker)\\.ts$' },
      to: { path: '@duckdb|^src/db/', reachable: true },
    },
    { name: 'duckdb-only-in-db', severity: 'error', comment: 'src/db/ is the only importer of DuckDB.', from: { path: '^src/', pathNot: '^src/db/' }, to: { path: '@duckdb' } },
    {
      name: 'db-and-render-are-the-bottom',
      severity: 'error',
      comment: 'db/ and render/ import each other and the leaf modules only.',
      from: { path: '^src/(db|render)/' },
      to: { path: '^src/', pathNot: ['^src/(db|render)/', '^src/[^/]+\\.ts$'] },
    },
    { name: 'render-is-pure', severity: 'error', comment: 'A renderer turns a result into text; it reads no database.', from: { path: '^src/render/' }, to: { path: '^src/db/' } },
    {
      name: 'leaf-modules-are-leaves',
      severity: 'error',
      comment: 'errors.ts, environment.ts and the like import only each other.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/(cli|main)\\.ts$' },
      to: { path: '^src/[^/]+/' },
    },
    {
      name: 'formats-are-independent',
      severity: 'error',
      comment: 'An agent-format plugin imports the core (and the plugin contract beside the formats), never another format.',
      from: { path: '^src/formats/([^/]+)/' },
      to: { path: '^src/formats/', pathNot: ['^src/formats/$1/', '^src/formats/(agent-format|cross-agent)\\.ts$'] },
    },
    { name: 'not-to-unresolvable', severity: 'error', comment: 'Every import resolves.', from: {}, to: { couldNotResolve: true } },
    { name: 'not-to-dev-dep', severity: 'error', comment: 'src/ ships: it imports no devDependency.', from: { path: '^src/' }, to: { dependencyTypes: ['npm-dev'] } },
    { name: 'no-non-package-json', severity: 'error', comment: 'Every package src/ imports is declared.', from: { path: '^src/' }, to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
