// The headline on hand-made section rows: which findings, in which order, with which counts and
// texts; and none from a section with no rows this window.
import { describe, expect, it } from 'vitest';
import { headline, type SectionRows } from '../../../src/report/headline.js';
import type { Row, Tabular } from '../../../src/render/types.js';

const t = (rows: Row[]): Tabular => ({ columns: Object.keys(rows[0] ?? {}), rows });
const phases = (rows: [string, number, number][]) => t(rows.map(([phase, window, previous]) => ({ phase, window, previous })));

function input(sections: Record<string, SectionRows>, errorPhases = phases([]), previousHoldsData = true) {
  return { sections: new Map(Object.entries(sections)), errorPhases, previousHoldsData };
}

const busy = {
  'silent-failures': { current: t([{ agent_id: 'a' }, { agent_id: 'b' }, { agent_id: 'c' }]), previous: t([{ agent_id: 'z' }]) },
  'retries-by-type': {
    current: t([{ type: 'retry', events: 9 }, { type: 'retry_budget_exhausted', events: 2 }]),
    previous: t([{ type: 'retry_budget_exhausted', events: 1 }]),
  },
  'snapshot-attribution': {
    current: t([{ verdict: 'clean' }, { verdict: 'collision' }, { verdict: 'split' }, { verdict: 'collision' }]),
    previous: t([{ verdict: 'clean' }]),
  },
};

describe('headline', () => {
  it('one finding per kind, most serious first, each naming its section', () => {
    expect(headline(input(busy, phases([['hook', 2, 0], ['stream', 1, 3], ['engine', 0, 1], ['connection', 1, 0]])))).toEqual([
      { kind: 'silent-failures', count: 3, text: '3 subagents failed silently: stopped with status error, no retry (previous window: 1)', section: 'silent-failures' },
      { kind: 'retry-budget-exhausted', count: 2, text: 'retry budget exhausted 2 times (previous window: 1)', section: 'retries-by-type' },
      { kind: 'snapshot-verdicts', count: 3, text: '3 subagent stream indices not clean: 2 collision, 1 split (previous window: 0)', section: 'snapshot-attribution' },
      { kind: 'new-error-phases', count: 2, text: '2 errors.jsonl phases not in the previous window: hook (2 records), connection (1 record)', section: 'input-coverage' },
    ]);
  });

  it('says one in the singular', () => {
    const one = {
      'silent-failures': { current: t([{ agent_id: 'a' }]), previous: t([]) },
      'retries-by-type': { current: t([{ type: 'retry_budget_exhausted', events: 1 }]), previous: t([]) },
      'snapshot-attribution': { current: t([{ verdict: 'split' }]), previous: t([]) },
    };
    expect(headline(input(one, phases([['hook', 1, 0]]))).map((f) => f.text)).toEqual([
      '1 subagent failed silently: stopped with status error, no retry (previous window: 0)',
      'retry budget exhausted 1 time (previous window: 0)',
      '1 subagent stream index not clean: 1 split (previous window: 0)',
      '1 errors.jsonl phase not in the previous window: hook (1 record)',
    ]);
  });

  it('nothing from sections with no rows this window, only clean verdicts, no exhausted budget, or phases seen before', () => {
    const quiet = {
      'silent-failures': { current: t([]), previous: t([{ agent_id: 'z' }]) },
      'retries-by-type': { current: t([{ type: 'retry', events: 4 }]), previous: t([{ type: 'retry_budget_exhausted', events: 5 }]) },
      'snapshot-attribution': { current: t([{ verdict: 'clean' }]), previous: t([{ verdict: 'collision' }]) },
    };
    expect(headline(input(quiet, phases([['stream', 1, 3], ['engine', 0, 1]])))).toEqual([]);
    expect(headline(input({}))).toEqual([]);
  });

  it('calls no phase new when the previous window holds no record at all: everything would be', () => {
    expect(headline(input({}, phases([['hook', 2, 0]]), false))).toEqual([]);
  });
});
