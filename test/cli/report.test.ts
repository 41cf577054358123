// `trajaudit report` on fixtures/home through the built binary. Week B (2026-08-17..23) is the
// window and week A its previous window; the figures are those of fixtures/home/EXPECTED.md.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runBinary, runCli, tempDir } from '../helpers/run-cli.js';

const HOME = path.join('fixtures', 'home');
const WEEK_B = ['--since', '2026-08-17', '--until', '2026-08-24'];
const WEEK_A = ['--since', '2026-08-10', '--until', '2026-08-17'];
const WARNING = 'trajaudit: 7 lines in 6 files could not be read; they are listed by `trajaudit sources`\n';

/** `## Title` → the rows of the first Markdown table under it, as cell strings (header row first). */
function tables(md: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const part of md.split(/^## /m).slice(1)) {
    const lines = part.split('\n');
    const first = lines.findIndex((l) => l.startsWith('|'));
    const end = first < 0 ? first : lines.findIndex((l, i) => i > first && !l.startsWith('|'));
    const table = first < 0 ? [] : lines.slice(first, end).filter((l) => !/^\|( -{3,}:? \|)+$/.test(l));
    out.set(lines[0], table.map((l) => l.slice(2, -2).split(' | ')));
  }
  return out;
}

describe('trajaudit report (Markdown on stdout)', async () => {
  const run = await runCli(['report', HOME, ...WEEK_B]);
  const t = tables(run.stdout);

  it('exits 0, warns about the unreadable lines on stderr only, and heads the report with the windows and inputs', () => {
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(WARNING);
    expect(run.stdout.split('\n').slice(0, 6)).toEqual([
      '# trajaudit reliability report, 2026-08-17 to 2026-08-24',
      '',
      '- Window: 2026-08-17T00:00:00Z → 2026-08-24T00:00:00Z (7 days)',
      '- Previous window: 2026-08-10T00:00:00Z → 2026-08-17T00:00:00Z',
      '- Inputs: `fixtures/home`',
      '- Δ = window minus previous window. Times are UTC; windows include their start and exclude their end.',
    ]);
  });

  it('opens with the findings of the week, each linking to the heading of its section', () => {
    const block = run.stdout.slice(run.stdout.indexOf('## Findings'), run.stdout.indexOf('## Input coverage'));
    expect(block).toBe([
      '## Findings',
      '',
      '- 2 subagents failed silently: stopped with status error, no retry (previous window: 0) → [Silent subagent failures](#silent-subagent-failures)',
      '- retry budget exhausted 1 time (previous window: 0) → [Retries by type](#retries-by-type)',
      '- 5 subagent stream indices not clean: 3 split, 2 collision (previous window: 3) → [Snapshot attribution verdicts](#snapshot-attribution-verdicts)',
      '- 1 errors.jsonl phase not in the previous window: hook (1 record) → [Input coverage](#input-coverage)',
      '', '',
    ].join('\n'));
    // Each link is the anchor GitHub gives one of the report's headings.
    const anchors = [...t.keys()].map((title) => `#${title.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-')}`);
    for (const [, target] of block.matchAll(/\]\((#[^)]+)\)/g)) expect(anchors).toContain(target);
  });

  it('input coverage lists the errors.jsonl records by phase against the previous window', () => {
    const coverage = run.stdout.slice(run.stdout.indexOf('### errors.jsonl records by phase'), run.stdout.indexOf('### errors.jsonl records (first 20)'));
    expect(coverage).toBe([
      '### errors.jsonl records by phase', '',
      '| phase | window | previous | Δ |', '| --- | ---: | ---: | ---: |',
      '| engine | 0 | 1 | -1 |', '| hook | 1 | 0 | +1 |', '| stream | 0 | 1 | -1 |', '| tool_execution | 0 | 1 | -1 |', '', '',
    ].join('\n'));
  });

  it('has every section, each naming its query', () => {
    expect([...t.keys()]).toEqual([
      'Findings', 'Input coverage', 'Retries by type', 'Retries by agent', 'Subagent outcomes', 'Silent subagent failures',
      'Snapshot attribution verdicts', 'Timeouts', 'Ghost streams', 'API errors, every agent', 'Subagent outcomes, every agent',
      'Tool errors, every agent', 'Test pollution of tasks/',
    ]);
    for (const q of ['retry-telemetry', 'retry-by-agent', 'subagent-starts', 'silent-subagent-failures', 'snapshot-attribution', 'timeouts', 'ghost-streams', 'api-errors', 'agent-outcomes', 'tool-errors', 'test-pollution']) {
      expect(run.stdout).toContain(`Query: \`${q}\`.`);
    }
  });

  it('input coverage: week B against week A, and the unreadable lines by file:line', () => {
    expect(t.get('Input coverage')).toEqual([
      ['input', 'window', 'previous', 'Δ'],
      ['sessions with events', '2', '3', '-1'],
      ['events (events.jsonl)', '199', '214', '-15'],
      ['errors.jsonl records', '1', '3', '-2'],
      ['warn.log records', '30', '0', '+30'],
      ['unreadable lines (files in the window)', '4', '3', '+1'],
      ['rows with no readable time, in no window (files in the window)', '0', '0', '0'],
    ]);
    for (const where of ['20260819-183103-4f7a9c2e/events.jsonl:54', '20260821-101500-b2d84e07/events.jsonl:18', '20260821-101500-b2d84e07/events.jsonl:36', '20260821-101500-b2d84e07/warn.log:1']) {
      expect(run.stdout).toContain(`| trajectories/sessions/${where} |`);
    }
  });

  it('retries by type: every type of either week, with the previous week and the delta', () => {
    expect(t.get('Retries by type')?.map((r) => r.slice(0, 4))).toEqual([
      ['type', 'events', 'events (prev)', 'Δ events'],
      ['stream_completed', '14', '17', '-3'],
      ['retry', '5', '4', '+1'],
      ['shared_cooldown_wait', '4', '0', '+4'],
      ['stream_stall', '2', '1', '+1'],
      ['cooldown_probe', '1', '0', '+1'],
      ['cooldown_probe_denied', '1', '0', '+1'],
      ['fallback', '1', '0', '+1'],
      ['retry_budget_exhausted', '1', '0', '+1'],
      ['stream_idle_timeout', '1', '1', '0'],
      ['stream_content_progress_timeout', '0', '1', '-1'],
    ]);
  });

  it('retries by agent, subagent outcomes and silent failures of the incident week', () => {
    expect(t.get('Retries by agent')?.slice(1, 4).map((r) => [r[1], r[3]])).toEqual([
      ['subagent-plan-ac5e1u4i6', '2'], ['subagent-explore-a3f9k2m7p', '1'], ['subagent-task-ab4r7t2y9', '1'],
    ]);
    expect(run.stdout).toContain('- total retries: 4 (previous window 0, +4)');
    const outcomes = t.get('Subagent outcomes')!;
    const col = (name: string) => outcomes[0].indexOf(name);
    const byType = Object.fromEntries(outcomes.slice(1).map((r) => [r[0], [r[col('starts')], r[col('starts (prev)')], r[col('completed')], r[col('error')], r[col('never_stopped')]]]));
    expect(byType).toEqual({
      task: ['3', '0', '1', '1', '1'], explore: ['2', '1', '1', '1', '0'], plan: ['1', '0', '1', '0', '0'],
      verify: ['1', '1', '1', '0', '0'], custom: ['0', '1', '0', '0', '0'],
    });
    expect(t.get('Silent subagent failures')?.map((r) => [r[1], r[4], r[5]])).toEqual([
      ['agent_id', 'gap_ms', 'retries'], ['subagent-explore-a8q1w5n0c', '1', '0'], ['subagent-task-a0z6h3j8d', '1', '0'],
    ]);
    expect(run.stdout).toContain('- rows: 2 (previous window 0, +2)');
  });

  it('snapshot verdicts, timeouts, ghost streams and the tasks/ census', () => {
    expect(t.get('Snapshot attribution verdicts')).toEqual([
      ['verdict', 'window', 'previous', 'Δ'],
      ['clean', '0', '1', '-1'], ['collision', '2', '0', '+2'], ['misattributed-to-main', '0', '2', '-2'], ['split', '3', '1', '+2'],
    ]);
    const fired = t.get('Timeouts')!.slice(1).reduce((sum, r) => sum + Number(r[1]), 0);
    const firedBefore = t.get('Timeouts')!.slice(1).reduce((sum, r) => sum + Number(r[2]), 0);
    expect([fired, firedBefore]).toEqual([3, 3]);
    expect(run.stdout).toContain('- total main_ghosts: 1 (previous window 8, -7)');
    expect(run.stdout).toContain('- total subagent_ghosts: 11 (previous window 1, +10)');
    expect(t.get('Test pollution of tasks/')).toEqual([
      ['category', 'files', 'bytes', 'share'], ['test', '7', '186', '0.35'], ['empty', '3', '0', '0.15'], ['real', '10', '1663', '0.5'],
    ]);
  });

  it('says once, at the top, that its charts are not included, since stdout has no place for SVG files', () => {
    expect(run.stdout.match(/^.*Charts? .*(omitted|not included).*$/gm)).toEqual([
      '- Charts are not included: Markdown written to a stream (stdout, a pipe) has no place for SVG files; pass --out FILE.md to write them beside it, or --format html.',
    ]);
    expect(run.stdout.indexOf('Charts are not included')).toBeLessThan(run.stdout.indexOf('\n## '));
  });

  it('reads a relative --since back from --until', async () => {
    expect((await runCli(['report', HOME, '--since', '7d', '--until', '2026-08-24'])).stdout).toBe(run.stdout);
  });
});

describe('trajaudit report --out', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('Markdown: writes the SVG charts beside the file, lists what it wrote, and writes the same bytes twice', async () => {
    const out = path.join(dir, 'weekly.md');
    const first = await runCli(['report', HOME, ...WEEK_B, '--out', out]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(WARNING);
    const svgs = ['retries-per-day', 'subagent-outcomes', 'pollution-share'].map((id) => path.join(dir, `weekly-${id}.svg`));
    expect(first.stdout).toBe(`${[out, ...svgs].join('\n')}\n`);
    const md = fs.readFileSync(out, 'utf8');
    expect(md).toContain('![Retry events per day by type](weekly-retries-per-day.svg)');
    const bytes = [out, ...svgs].map((f) => fs.readFileSync(f, 'utf8'));
    for (const svg of bytes.slice(1)) {
      expect(svg.startsWith('<svg role="img"')).toBe(true);
      expect(svg).not.toMatch(/<script|href=|url\(/);
    }
    await runCli(['report', HOME, ...WEEK_B, '--out', out]);
    expect([out, ...svgs].map((f) => fs.readFileSync(f, 'utf8'))).toEqual(bytes);
  });

  it('Markdown: an --out name with spaces, parentheses or % still gives CommonMark image links to the SVGs it wrote', async () => {
    const out = path.join(dir, 'weekly (final) 50%.md');
    const run = await runCli(['report', HOME, ...WEEK_B, '--out', out]);
    expect(run.code).toBe(0);
    const links = fs.readFileSync(out, 'utf8').match(/^!\[.*$/gm);
    // A bare destination ends at the space: `](weekly (final) 50%-….svg)` is plain text, not an image.
    expect(links).toEqual(['retries-per-day', 'subagent-outcomes', 'pollution-share'].map((id) => expect.stringContaining(`](<weekly (final) 50%25-${id}.svg>)`)));
    for (const id of ['retries-per-day', 'subagent-outcomes', 'pollution-share']) {
      expect(fs.existsSync(path.join(dir, decodeURIComponent(`weekly (final) 50%25-${id}.svg`)))).toBe(true);
    }
  });

  it('HTML: one self-contained file: inline SVG and CSS, no script, no external URL, trajectory text escaped', async () => {
    const out = path.join(dir, 'weekly.html');
    const run = await runCli(['report', path.join(FIXTURES, 'home'), ...WEEK_A, '--format', 'html', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${out}\n`);
    const html = fs.readFileSync(out, 'utf8');
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).not.toMatch(/<script|<img|<link|<iframe|<object|<embed|<[^>]*\s(?:src|href|on[a-z]+)=(?!"#)|@import/i);
    expect([...new Set(html.match(/https?:\/\/[^\s"'<>)]*/g))]).toEqual(['http://www.w3.org/2000/svg']);
    expect(html).toContain('WebFetch 失败：响应不是合法 HTML，解析在 &lt;script&gt;alert(1)&lt;/script&gt; 附近中断；片段：&lt;img src=x onerror=alert(2)&gt;');
  });
});

describe('trajaudit report where no code may be made from strings', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('under node --disallow-code-generation-from-strings writes the same report and charts as without', async () => {
    const plain = path.join(dir, 'plain.html');
    const strict = path.join(dir, 'strict.html');
    expect(await runCli(['report', HOME, ...WEEK_B, '--format', 'html', '--out', plain])).toEqual({ code: 0, stdout: `${plain}\n`, stderr: WARNING });
    const run = runBinary(['report', HOME, ...WEEK_B, '--format', 'html', '--out', strict], { nodeArgs: ['--disallow-code-generation-from-strings'] });
    expect(run).toEqual({ code: 0, stdout: `${strict}\n`, stderr: WARNING });
    const html = fs.readFileSync(strict, 'utf8');
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toBe(fs.readFileSync(plain, 'utf8'));
  });
});

describe('trajaudit report errors', () => {
  it.each([
    [['--since', '2026-08-24', '--until', '2026-08-17'], 'trajaudit: --since 2026-08-24T00:00:00.000Z is not before --until 2026-08-17T00:00:00.000Z; the window would be empty\n'],
    [['--since', '2026-08-17T00:00:00.0001Z', '--until', '2026-08-24'], 'trajaudit: report --since "2026-08-17T00:00:00.0001Z" (2026-08-17T00:00:00.000100Z): report windows are whole milliseconds; drop the digits after the third\n'],
    // The digits of a relative --since come from --until: name --until, as the user typed it.
    [['--since', '7d', '--until', '2026-08-24T00:00:00.0001Z'], 'trajaudit: report --until "2026-08-24T00:00:00.0001Z" (2026-08-24T00:00:00.000100Z): report windows are whole milliseconds; drop the digits after the third\n'],
    // 0001-01-01 is a time; the previous window, a year and more before it, is not.
    [['--since', '0001-01-01', '--until', '2026-08-24'], 'trajaudit: report --since "0001-01-01": the previous window (as long as this one, right before it) would start before the year 0000; use a later --since or a shorter window\n'],
    [['--since', 'yesterday'], 'trajaudit: --since "yesterday" is not a time: use an ISO date or time (2026-08-17, 2026-08-17T10:00:00Z) or a span back from now (7d, 24h, 30m)\n'],
    [[...WEEK_B, '--out', 'no/such/dir/r.md'], 'trajaudit: --out no/such/dir/r.md: directory no/such/dir does not exist; create it or pass another path\n'],
  ])('%j exits 2 with one line', async (args, stderr) => {
    const run = await runCli(['report', HOME, ...args]);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', stderr]);
  });
});
