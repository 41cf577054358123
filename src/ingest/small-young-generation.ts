// V8 grows its young generation to 32 MB (two semi-spaces of 16 MB) while a load runs, and keeps
// it: pages that sat beside DuckDB's peak. Held at its first size (two of 1 MB), the 1 GiB home's
// load peaked 30–40 MB lower, in the same time (434 → 395 MB; the 5 GiB home 459–499 → 432–453 MB,
// session 15). A run-time V8 flag, read each time the young generation would grow; best effort,
// like collect-garbage.ts: where it does not work, V8 sizes it as it will.
import v8 from 'node:v8';

export function keepYoungGenerationSmall(): void {
  try {
    v8.setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    // V8 keeps its own sizing.
  }
}
