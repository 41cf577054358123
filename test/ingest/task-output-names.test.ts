import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, runJson } from '../helpers/run-cli.js';

// tasks/<taskId>.output, taskId = one letter + 8 of [0-9a-z] (docs/formats.md#task-outputs). Every *.output
// file is in the census; only a name of that form gives a task id and prefix, and only a, s, w
// a task type: the rest are `unknown`.
const TASKS = path.join(FIXTURES, 'task-output-names', 'tasks');

describe('fixtures/task-output-names: a task id only from a name that is one', () => {
  it('lists every file, with task_id and prefix NULL where the name is no task id', async () => {
    const { value, run } = await runJson<unknown[]>(['sql', 'SELECT path, task_id, prefix, task_type, bytes FROM task_outputs ORDER BY path', TASKS]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(value).toEqual([
      { path: '.output', task_id: null, prefix: null, task_type: 'unknown', bytes: 6 },
      { path: 'A12345678.output', task_id: null, prefix: null, task_type: 'unknown', bytes: 12 }, // upper case
      { path: 'a0000000a.output', task_id: 'a0000000a', prefix: 'a', task_type: 'local_agent', bytes: 24 },
      { path: 'a1.output.output', task_id: null, prefix: null, task_type: 'unknown', bytes: 24 },
      { path: 'a123456789.output', task_id: null, prefix: null, task_type: 'unknown', bytes: 15 }, // nine after the prefix
      { path: 'b12345678.output', task_id: 'b12345678', prefix: 'b', task_type: 'unknown', bytes: 0 }, // a prefix sid-code does not use
      { path: 'foo bar.output', task_id: null, prefix: null, task_type: 'unknown', bytes: 6 },
      { path: 's1234567z.output', task_id: 's1234567z', prefix: 's', task_type: 'local_shell', bytes: 8 },
    ]);
  });
});
