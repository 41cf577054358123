import { describe, expect, it } from 'vitest';
import { taskIdOf } from '../../../src/timeline/agent-id.js';

describe('taskIdOf', () => {
  it('finds the task id in all three spellings of one subagent', () => {
    expect(taskIdOf('subagent-explore-a8q1w5n0c')).toBe('a8q1w5n0c');
    expect(taskIdOf('20260819-183103-4f7a9c2e-sub-a8q1w5n0c')).toBe('a8q1w5n0c');
    expect(taskIdOf('a8q1w5n0c')).toBe('a8q1w5n0c');
  });

  it('has none for custom subagents, session ids and other text', () => {
    expect(taskIdOf('subagent-custom-1786671164080')).toBeNull();
    expect(taskIdOf('20260819-183103-4f7a9c2e')).toBeNull();
    expect(taskIdOf('3b9f02d6')).toBeNull();
    expect(taskIdOf('subagent-explore-A8Q1W5N0C')).toBeNull();
  });
});
