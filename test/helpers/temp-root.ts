// vitest's global setup: every temp dir of a test run (the tests' own, and those of the CLIs they
// run: DuckDB's spill dirs, a killed load's copies) is made under one dir, removed when the run
// ends. A worker ended without its 'exit' handlers, or a CLI killed with SIGKILL, then leaves
// nothing behind in the system's temp dir.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  // Each project (unit, e2e) runs the global setup: the first one's dir serves the run.
  if (process.env.TESTS_TEMP_ROOT !== undefined) return () => undefined;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'trajaudit-tests-'));
  // As /tmp's: the tests that run the CLI as another user make their temp dirs here too.
  fs.chmodSync(root, 0o1777);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  process.env.TESTS_TEMP_ROOT = root;
  return () => {
    delete process.env.TESTS_TEMP_ROOT;
    fs.rmSync(root, { recursive: true, force: true });
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  };
}
