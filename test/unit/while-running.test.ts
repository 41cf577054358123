// The progress of one long step, on a recording Progress and Vitest's fake clock: nothing for a
// quick step, else the elapsed time from the delay on, and the line cleared as the step ends.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whileRunning } from '../../src/while-running.js';

function recorder() {
  const seen: string[] = [];
  return { seen, progress: { update: (m: string) => void seen.push(m), done: () => void seen.push('(done)') } };
}

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('whileRunning', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('draws nothing for a step shorter than the delay', async () => {
    const { seen, progress } = recorder();
    const answer = whileRunning(progress, 'retry-by-agent', () => after(900, 'rows'));
    await vi.advanceTimersByTimeAsync(5000);
    expect([await answer, seen]).toEqual(['rows', []]);
  });

  it('from the delay on, says what runs and for how long, every tick, and clears the line when the answer arrives', async () => {
    const { seen, progress } = recorder();
    const answer = whileRunning(progress, 'retry-by-agent', () => after(1450, 'rows'), { delayMs: 1000, everyMs: 200 });
    await vi.advanceTimersByTimeAsync(5000);
    expect([await answer, seen]).toEqual(['rows', [
      'running retry-by-agent … 1.0 s', 'running retry-by-agent … 1.2 s', 'running retry-by-agent … 1.4 s', '(done)',
    ]]);
  });

  it('clears the line when the step fails, and passes its error on', async () => {
    const { seen, progress } = recorder();
    const failed = whileRunning(progress, 'the SQL statement', () => after(1100, null).then(() => Promise.reject(new Error('bad SQL'))));
    const caught = failed.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(5000);
    expect([await caught, seen]).toEqual(['bad SQL', ['running the SQL statement … 1.0 s', '(done)']]);
  });
});
