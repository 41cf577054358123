import { describe, expect, it } from 'vitest';
import { loadQueries } from '../../../src/queries/load-queries.js';
import { sectionSpecs } from '../../../src/report/sections.js';

describe('report sections', () => {
  const queries = new Map(loadQueries().map((q) => [q.name, q]));

  it('each names a canned query that exists and can be bound to the window', () => {
    for (const spec of sectionSpecs) {
      const query = queries.get(spec.query);
      expect(query, `${spec.id} → queries/${spec.query}.sql`).toBeDefined();
      expect(query!.params.map((p) => p.name), spec.query).toEqual(expect.arrayContaining(['since', 'until']));
    }
  });

  it('covers the sections the weekly report promises, in order', () => {
    expect(sectionSpecs.map((s) => s.query)).toEqual([
      'retry-telemetry', 'retry-by-agent', 'subagent-starts', 'silent-subagent-failures',
      'snapshot-attribution', 'timeouts', 'ghost-streams', 'api-errors', 'agent-outcomes', 'tool-errors', 'test-pollution',
    ]);
  });
});
