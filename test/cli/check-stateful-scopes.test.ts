import { describe, expect, it } from 'vitest';
import { runCli } from '../checks/run-cli.js';

// fixtures/check-stateful-scopes: constructions under another name, in immediately invoked
// functions, in static members, and kept by a lazy or init-function singleton; the scope decides
// whether the object is a process-wide singleton.
const fixture = 'fixtures/check-stateful-scopes';
const singleton = 'one instance shared by the whole process; build it per agent and pass it in';
const rule = 'stateful-construction';

describe('stateful-construction: scopes', () => {
  it('follows renamed imports and renaming re-exports (not a local class or a package export of the alias name); a top-level IIFE whose result is kept, a static field, a lazy singleton and an init function the module keeps the result of run once per process (error); a discarded one is a startup block (info)', async () => {
    const run = await runCli(['check', fixture]);
    expect([run.code, run.stderr]).toEqual([1, '']);
    expect(run.stdout).toBe(
      [
        'src/immediately-invoked.ts',
        `  4:35     error   new            ${rule} FileReadTracker built at module top level: ${singleton}`,
        `  6:10     error   new            ${rule} createStatefulTools() builds stateful objects at module top level: ${singleton}`,
        `  9:14     error   new            ${rule} FileReadTracker built at module top level: ${singleton}`,
        `  14:21    note    info           ${rule} FileReadTracker built in perCall`,
        `  16:32    note    info           ${rule} FileReadTracker built in later`,
        `  22:28    note    info           ${rule} FileReadTracker built in <anonymous>`, // void (async () => …)(): a startup block
        '',
        'src/lazy-singletons.ts',
        `  6:28     error   new            ${rule} FileReadTracker built in getTracker, kept in module-level instance (a lazy singleton): ${singleton}`,
        `  10:29    error   new            ${rule} FileReadTracker built in getCached, kept in module-level cached (a lazy singleton): ${singleton}`,
        `  16:10    error   new            ${rule} createStatefulTools() called in init, whose result the module keeps (init() at line 18): ${singleton}`,
        `  23:20    note    info           ${rule} FileReadTracker built in local`, // its own local named instance
        `  29:34    note    info           ${rule} FileReadTracker built in Owner.get`, // this.tracker ??= …: one per owner
        `  33:14    note    info           ${rule} FileReadTracker built in build`, // only called per agent
        '',
        'src/reexported.ts',
        `  4:27     error   new            ${rule} FileReadTracker built at module top level: ${singleton}`, // Tracker, renamed by the barrel
        `  5:22     error   new            ${rule} createStatefulTools() builds stateful objects at module top level: ${singleton}`,
        '',
        'src/renamed-imports.ts',
        `  3:27     error   new            ${rule} FileReadTracker built at module top level: ${singleton}`,
        `  4:22     error   new            ${rule} createStatefulTools() builds stateful objects at module top level: ${singleton}`,
        '',
        'src/static-members.ts',
        `  4:23     error   new            ${rule} FileReadTracker built in static field Registry.shared: ${singleton}`,
        `  7:29     error   new            ${rule} FileReadTracker built at module top level: ${singleton}`,
        `  9:22     warning new            ${rule} FileReadTracker built in field initializer Registry.own: one per Registry instance`,
        `  15:26    note    info           ${rule} FileReadTracker built in Local.tracker`,
        '',
        '13 new, 0 baselined, 0 allowed, 7 info, 0 stale (9 files scanned, 9 parsed)',
        '',
      ].join('\n'),
    );
  });
});
