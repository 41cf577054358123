// V8 grows its young generation to 32 MB (two semi-spaces of 16 MB) while a load runs, and keeps
// it: pages that sit beside DuckDB's peak, and that push the RSS guard (rss-guard.ts) into
// handing memory back more often. Held at its first size (two of 1 MB), a load peaks lower, in
// the same time or less. A run-time V8 flag, read each time the young generation would grow;
// best effort, like collect-garbage.ts: where it does not work, V8 sizes it as it will. The
// command's queries after the load get V8's growth back (2, its default).
import v8 from 'node:v8';

function setFlag(flag: string): void {
  try {
    v8.setFlagsFromString(flag);
  } catch {
    // V8 keeps its own sizing.
  }
}

/** Keeps the young generation at its size until the returned function is called. */
export function keepYoungGenerationSmall(): () => void {
  setFlag('--semi-space-growth-factor=1');
  return () => setFlag('--semi-space-growth-factor=2');
}
