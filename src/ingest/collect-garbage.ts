// Full V8 collections while a load's small files are read. They leave much garbage on a large
// home, and the JSONL work beside and after them allocates so little in V8 that no collection
// would come for a long while: that garbage would sit beside DuckDB's peak. `--expose-gc` set at
// run time makes `gc` visible to a new context only, which is all this needs. Best effort: where
// that does not work (run-time V8 flags are not a documented interface), V8 collects when it will.
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | null | undefined;

export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const found: unknown = vm.runInNewContext('typeof gc === "function" ? gc : null');
      gc = typeof found === 'function' ? (found as () => void) : null;
    } catch {
      gc = null;
    }
  }
  if (!gc) return;
  gc();
  gc(); // the first frees the objects; the second gives their pages back to the system
}
