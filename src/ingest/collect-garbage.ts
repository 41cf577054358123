// A full V8 collection, between a load's phases. The small-file phase leaves up to ~200 MB of
// garbage on a 5 GiB home; the JSONL phase that follows allocates so little in V8 that no
// collection came for ~25 s, and that garbage sat beside DuckDB's peak (RSS 528 MB against
// 448 MB when the scan still allocated strings). `--expose-gc` set at run time makes `gc`
// visible to a new context only, which is all this needs.
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc(); // the first frees the objects; the second gives their pages back to the system (measured)
}
