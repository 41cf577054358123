import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { event, sessionTree } from '../helpers/session-tree.js';

// A window over 31 days draws bars of several days: one retry on 07-01 and one on 07-02 make one
// bar of 2, which must not read as 2 retries on 07-01. A bar ends at its last microsecond: the
// retry a microsecond before 07-03 is in the first bar, the one at 07-03 midnight in the next.
const ID = '20260701-080000-a9a9a9a9';
const retry = (ts: string, attempt: number) => event(ID, 'RetryTelemetry', ts, { type: 'retry', model: 'm', attempt, delayMs: 1000, error: '429', phase: 'stream', discardedChars: 0 });
const tree = sessionTree(ID, [
  retry('2026-07-01T10:00:00.000Z', 1), retry('2026-07-02T10:00:00.000Z', 2),
  retry('2026-07-02T23:59:59.999999Z', 3), retry('2026-07-03T00:00:00.000Z', 4),
]);
afterAll(tree.cleanup);
// The report goes outside the input: trajaudit never writes inside the data it reads.
const outDir = tempDir();
afterAll(outDir.cleanup);

async function chart(since: string, until: string): Promise<{ md: string; svg: string }> {
  const out = path.join(outDir.dir, `w-${since}.md`);
  const run = await runCli(['report', tree.home, '--since', since, '--until', until, '--out', out]);
  expect(run.code, run.stderr).toBe(0);
  return { md: fs.readFileSync(out, 'utf8'), svg: fs.readFileSync(out.replace(/\.md$/, '-retries-per-day.svg'), 'utf8') };
}

describe('report: the retries chart of a long window', () => {
  it('says "per 2 days" in its title and axis, and labels each bar with the days it covers', async () => {
    const { md, svg } = await chart('2026-07-01', '2026-09-01');
    expect(md).toContain('![Retry events per 2 days by type](w-2026-07-01-retries-per-day.svg)');
    expect(svg).toContain("X-axis titled '2 days (UTC), first–last'");
    expect(svg).toContain('aria-label="2 days (UTC), first–last: 2026-07-01–02; events: 3; type: retry"');
    expect(svg).toContain('aria-label="2 days (UTC), first–last: 2026-07-03–04; events: 1; type: retry"');
    // A bar across a month end names both months; the last bar is the short one the window leaves.
    expect(svg).toContain('>2026-07-31–08-01<');
    expect(svg).toContain('>2026-08-30–31<');
  });

  it('keeps "per day" and plain day labels for a window of one bar a day', async () => {
    const { md, svg } = await chart('2026-07-01', '2026-07-08');
    expect(md).toContain('![Retry events per day by type](w-2026-07-01-retries-per-day.svg)');
    expect(svg).toContain('aria-label="day (UTC): 2026-07-01; events: 1; type: retry"');
  });
});
