import { describe, expect, it } from 'vitest';
import { entriesFor, serializeBaseline } from '../../../src/baseline/baseline-file.js';
import { matchBaseline } from '../../../src/baseline/match.js';
import type { RawFinding } from '../../../src/checks/define-check.js';

const finding = (over: Partial<RawFinding>): RawFinding => ({
  rule: 'direct-provider-call',
  file: 'src/a.ts',
  line: 1,
  column: 1,
  message: 'm',
  severity: 'error',
  scope: 'A.run',
  anchor: 'this.p.sendMessageStream',
  textHash: 'h1',
  resolution: 'syntactic',
  ...over,
});
const rules = new Set(['direct-provider-call']);

describe('matchBaseline layers', () => {
  const baseline = entriesFor([finding({}), finding({ file: 'src/old.ts', scope: 'B.go', textHash: 'h2' })]);

  it('exact, moved within the file (scope changed), renamed file (old file gone)', () => {
    const moved = finding({ scope: 'A.other', line: 40 });
    const renamed = finding({ file: 'src/new.ts', scope: 'B.go', textHash: 'h2' });
    const { states, stale } = matchBaseline([moved, renamed], baseline, rules);
    expect([states.get(moved), states.get(renamed)]).toEqual(['baselined', 'baselined']);
    expect(stale).toEqual([]);
  });

  it('a same-text finding in another file is a move when its own file lost it, and new while its own file keeps it', () => {
    const moved = finding({ file: 'src/new.ts', scope: 'B.go', textHash: 'h2' });
    const { states, stale } = matchBaseline([moved], baseline, rules);
    expect(states.get(moved)).toBe('baselined');
    expect(stale.map((e) => e.file)).toEqual(['src/a.ts']);
    const kept = finding({ file: 'src/old.ts', scope: 'B.go', textHash: 'h2' });
    const copy = finding({ file: 'src/new.ts', scope: 'B.go', textHash: 'h2' });
    const both = matchBaseline([kept, copy], baseline, rules);
    expect([both.states.get(kept), both.states.get(copy)]).toEqual(['baselined', 'new']);
  });

  it('counts are consumed one by one; allowed and note findings never match', () => {
    const twice = [finding({ line: 1 }), finding({ line: 2 })];
    const allowed = finding({ allowReason: 'ok' });
    const note = finding({ severity: 'note' });
    const { states } = matchBaseline([...twice, allowed, note], baseline, rules);
    expect([...twice, allowed, note].map((f) => states.get(f))).toEqual(['baselined', 'new', 'allowed', 'info']);
  });

  it('entries of rules that did not run are not stale', () => {
    expect(matchBaseline([], baseline, new Set(['dead-catch'])).stale).toEqual([]);
  });

  it('serializes sorted, merged, one entry per line', () => {
    const text = serializeBaseline([...entriesFor([finding({ file: 'src/b.ts' })]), ...entriesFor([finding({})]), ...entriesFor([finding({})])]);
    expect(text).toBe(
      '{\n  "version": 1,\n  "entries": [\n' +
        '    {"rule":"direct-provider-call","file":"src/a.ts","scope":"A.run","anchor":"this.p.sendMessageStream","hash":"h1","count":2},\n' +
        '    {"rule":"direct-provider-call","file":"src/b.ts","scope":"A.run","anchor":"this.p.sendMessageStream","hash":"h1","count":1}\n' +
        '  ]\n}\n',
    );
  });
});
