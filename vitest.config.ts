import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { LOAD_ALLOCATOR } from './src/db/allocator.js';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One process per worker for every file it runs, not one per file: DuckDB's binding, TypeScript
    // and dist/ load once. Tests leave no process state behind (runCli restores cwd and env).
    isolate: false,
    // One worker per core: the e2e tests wait on DuckDB and the file system as much as on the CPU.
    maxWorkers: os.availableParallelism(),
    // A worker runs many commands in one process, and DuckDB's allocator is set once per process
    // (allocator.ts): the load's setting, which keeps freed pages for reuse. Memory, not results.
    env: { DUCKDB_JE_MALLOC_CONF: LOAD_ALLOCATOR },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // One temp dir for the run, removed at its end (temp-root.ts).
    globalSetup: ['./test/helpers/temp-root.ts'],
    projects: [
      // Functions of src/ alone: no built CLI, no DuckDB file, no child process.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // The built CLI (dist/) on fixture trees: in-process through main(), or spawned where the process is under test.
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          // dist/ is Node's to load, once per worker, as the bin loads it; not vite's to transform for every file.
          server: { deps: { external: [/\/dist\//] } },
        },
      },
    ],
  },
});
