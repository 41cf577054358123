// `trajaudit report` over a copy of fixtures/home whose agent and retry types (and one errors.jsonl phase) hold
// tools can write: terminal controls, bidi overrides, and the characters XML 1.0 cannot hold.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';
import { parseXml } from '../helpers/xml.js';

const SESSION = '20260819-183103-4f7a9c2e';
const WEEK_B = ['--since', '2026-08-17', '--until', '2026-08-24'];
const { dir, cleanup } = tempDir('trajaudit-report-hostile-');
afterAll(cleanup);

const home = path.join(dir, 'home');
fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
const line = (name: string, second: number, data: Record<string, unknown>) =>
  JSON.stringify({ event: name, session_id: SESSION, timestamp: `2026-08-19T10:40:${String(second).padStart(2, '0')}.000Z`, data });
fs.appendFileSync(path.join(home, 'trajectories', 'sessions', SESSION, 'events.jsonl'), [
  line('SubagentStart', 0, { agent_id: 'subagent-x-a1b2c3d4e', agent_type: 'rev\u001b[1mwer' }),
  line('SubagentStart', 1, { agent_id: 'subagent-y-a1b2c3d4f', agent_type: '\u202eerolpxe' }),
  line('SubagentStart', 2, { agent_id: 'subagent-z-a1b2c3d4g', agent_type: 'plan\uffff' }),
  line('RetryTelemetry', 3, { type: 'retry\ufffe', model: 'm', attempt: 1, delayMs: 10, error: '429', phase: 'stream', discardedChars: 0 }),
  line('RetryTelemetry', 4, { type: 'retry\u0007', model: 'm', attempt: 1, delayMs: 10, error: '429', phase: 'stream', discardedChars: 0 }),
].join('\n') + '\n');
// An errors.jsonl phase never seen before: the headline names it.
fs.writeFileSync(path.join(home, 'trajectories', 'sessions', SESSION, 'errors.jsonl'), `${JSON.stringify({
  event: 'Error', timestamp: '2026-08-19T10:40:05.000Z', session_id: SESSION, data: { phase: 'hook\u001b]0;x\u0007<b>[y](z)', index: 1, error: 'e' },
})}\n`);

describe('report: hostile agent and retry types', () => {
  it('Markdown --out: every SVG chart beside it is well-formed XML, the types shown with the escapes of the tables', async () => {
    const out = path.join(dir, 'md', 'weekly.md');
    fs.mkdirSync(path.dirname(out));
    const run = await runCli(['report', home, ...WEEK_B, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const svg = (id: string) => fs.readFileSync(path.join(dir, 'md', `weekly-${id}.svg`), 'utf8');
    for (const id of ['retries-per-day', 'subagent-outcomes', 'pollution-share']) expect(parseXml(svg(id)), id).toBe('svg');
    expect(svg('subagent-outcomes')).toContain('rev\\u001b[1mwer');
    expect(svg('subagent-outcomes')).toContain('\\u202eerolpxe');
    expect(svg('subagent-outcomes')).toContain('plan\\uffff');
    expect(svg('retries-per-day')).toContain('retry\\ufffe');
    expect(svg('retries-per-day')).toContain('retry\\u0007');
    // The table in the Markdown says the same, and so does the headline of the new phase.
    expect(fs.readFileSync(out, 'utf8')).toContain('| rev\\u001b\\[1mwer |');
    expect(fs.readFileSync(out, 'utf8')).toContain('- 2 errors.jsonl phases not in the previous window: hook (1 record), hook\\u001b\\]0;x\\u0007&lt;b&gt;\\[y\\](z) (1 record) → [Input coverage](#input-coverage)\n');
  });

  it('HTML: controls and bidi overrides are shown as escapes, as in Markdown, never passed to the reader', async () => {
    for (const out of [[], ['--out', path.join(dir, 'weekly.html')]]) {
      const run = await runCli(['report', home, ...WEEK_B, '--format', 'html', ...out]);
      expect(run.code, run.stderr).toBe(0);
      const html = out.length ? fs.readFileSync(out[1], 'utf8') : run.stdout;
      // eslint-disable-next-line no-control-regex
      expect(html.match(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu) ?? []).toEqual([]);
      expect(html).toContain('<td class="txt">rev\\u001b[1mwer</td>');
      expect(html).toContain('<td class="txt">\\u202eerolpxe</td>');
      expect(html).toContain('retry\\u0007');
      expect(html).toContain('<li>2 errors.jsonl phases not in the previous window: hook (1 record), hook\\u001b]0;x\\u0007&lt;b&gt;[y](z) (1 record) → <a href="#input-coverage">Input coverage</a></li>');
    }
  });
});
