// The load's progress line only grows: a commit group rolled back (a reader's refusal) and read
// again takes back its in-flight files and bytes, and the line does not go back with them.
import { describe, expect, it } from 'vitest';
import { LoadTally, timeLeft } from '../../../src/ingest/load-tally.js';
import type { IngestSummary } from '../../../src/ingest/plan-load.js';
import type { Work } from '../../../src/ingest/work.js';

const MiB = 1048576;
const summary = (): IngestSummary => ({ files: 4, loaded: 0, appended: 0, reloaded: 0, unchanged: 0, outsideWindow: 0, unread: [], bytesRead: 0, malformed: 0, gone: [] });
const work = { plan: { action: 'load' } } as unknown as Work;

describe('LoadTally', () => {
  it('shows files and MiB done of the total, the rate and the time left, never going back', () => {
    const lines: string[] = [];
    let clock = 0;
    const tally = new LoadTally(summary(), { update: (m) => lines.push(m), done() {} }, 40 * MiB, () => clock);
    const step = (ms: number, f: () => void) => {
      clock += ms;
      f();
      tally.tick();
    };
    step(1000, () => tally.inFlight({ files: 2, bytes: 20 * MiB }));
    step(1000, () => tally.inFlight({ files: -2, bytes: -20 * MiB })); // rolled back
    step(1000, () => tally.inFlight({ files: 1, bytes: 10 * MiB }));
    step(1000, () => {
      tally.inFlight({ files: -1, bytes: -10 * MiB });
      tally.record(work, { lines: 0, valid: 0, blank: 0, malformed: 0, bytes: 30 * MiB, completeBytes: 0, completeLines: 0, problems: [] });
    });
    expect(lines).toEqual([
      'loading 2/4 files, 20.0/40.0 MiB, 20 MiB/s, 1 s left',
      'loading 2/4 files, 20.0/40.0 MiB, 10 MiB/s, 2 s left',
      'loading 2/4 files, 20.0/40.0 MiB, 7 MiB/s, 3 s left',
      'loading 2/4 files, 30.0/40.0 MiB, 8 MiB/s, 2 s left',
    ]);
  });

  it('says the time left in seconds, minutes or hours', () => {
    expect([timeLeft(0.2), timeLeft(59), timeLeft(125), timeLeft(3 * 3600 + 65)]).toEqual(['1 s', '59 s', '2 min 5 s', '3 h 1 min']);
  });
});
