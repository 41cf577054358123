// The report's headline (the findings at its top) and its machine form, `report --format json`,
// on fixtures/home: week B (the incident) has a finding of every kind; week A, whose previous
// window holds nothing, calls no errors.jsonl phase new; an empty window flags nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runJson, tempDir } from '../helpers/run-cli.js';

const HOME = path.join('fixtures', 'home');
const WEEK_B = ['--since', '2026-08-17', '--until', '2026-08-24'];
const WEEK_A = ['--since', '2026-08-10', '--until', '2026-08-17'];
const WARNING = 'trajaudit: 7 lines in 6 files could not be read; they are listed by `trajaudit sources`\n';
const NOTHING = 'Nothing to flag this window: no silent subagent failure, no exhausted retry budget, no snapshot verdict other than clean, no errors.jsonl phase new since the previous window.';

interface ReportJson {
  window: { since: string; until: string };
  previous: { since: string; until: string };
  inputs: string[];
  empty: string | null;
  headline: { kind: string; count: number; text: string; section: string }[];
  sections: { id: string; title: string; query: string | null; about: string; columns: string[]; rows: Record<string, unknown>[]; notes: string[]; extra: { title: string; columns: string[]; rows: Record<string, unknown>[] }[] }[];
}

const WEEK_B_HEADLINE = [
  { kind: 'silent-failures', count: 2, text: '2 subagents failed silently: stopped with status error, no retry (previous window: 0)', section: 'silent-failures' },
  { kind: 'retry-budget-exhausted', count: 1, text: 'retry budget exhausted 1 time (previous window: 0)', section: 'retries-by-type' },
  { kind: 'snapshot-verdicts', count: 5, text: '5 subagent stream indices not clean: 3 split, 2 collision (previous window: 3)', section: 'snapshot-attribution' },
  { kind: 'new-error-phases', count: 1, text: '1 errors.jsonl phase not in the previous window: hook (1 record)', section: 'input-coverage' },
];

describe('report --format json', async () => {
  const { value, run } = await runJson<ReportJson>(['report', HOME, ...WEEK_B]);

  it('is one document: the windows, the inputs, the headline and every section with its table, notes and extra tables', () => {
    expect([run.code, run.stderr]).toEqual([0, WARNING]);
    expect(Object.keys(value)).toEqual(['window', 'previous', 'inputs', 'empty', 'headline', 'sections']);
    expect([value.window, value.previous, value.inputs, value.empty]).toEqual([
      { since: '2026-08-17T00:00:00Z', until: '2026-08-24T00:00:00Z' }, { since: '2026-08-10T00:00:00Z', until: '2026-08-17T00:00:00Z' }, [HOME], null,
    ]);
    expect(value.sections.map((s) => [s.id, s.query, Object.keys(s)])).toEqual([
      ['input-coverage', null], ['retries-by-type', 'retry-telemetry'], ['retries-by-agent', 'retry-by-agent'], ['subagent-outcomes', 'subagent-starts'],
      ['silent-failures', 'silent-subagent-failures'], ['snapshot-attribution', 'snapshot-attribution'], ['timeouts', 'timeouts'],
      ['ghost-streams', 'ghost-streams'], ['api-errors', 'api-errors'], ['agent-outcomes', 'agent-outcomes'], ['tool-errors', 'tool-errors'],
      ['test-pollution', 'test-pollution'],
    ].map(([id, query]) => [id, query, ['id', 'title', 'query', 'about', 'columns', 'rows', 'notes', 'extra']]));
  });

  it('headline: {kind, count, text, section} per finding, each section one of the report\'s', () => {
    expect(value.headline).toEqual(WEEK_B_HEADLINE);
    for (const finding of value.headline) expect(value.sections.map((s) => s.id)).toContain(finding.section);
  });

  it('a section: its table as shown, rows keyed by column, with the notes and extra tables of the Markdown', () => {
    const verdicts = value.sections.find((s) => s.id === 'snapshot-attribution')!;
    expect([verdicts.columns, verdicts.rows, verdicts.notes, verdicts.extra]).toEqual([
      ['verdict', 'window', 'previous', 'Δ'],
      [
        { verdict: 'clean', window: 0, previous: 1, 'Δ': '-1' }, { verdict: 'collision', window: 2, previous: 0, 'Δ': '+2' },
        { verdict: 'misattributed-to-main', window: 0, previous: 2, 'Δ': '-2' }, { verdict: 'split', window: 3, previous: 1, 'Δ': '+2' },
      ],
      [], [],
    ]);
    const coverage = value.sections[0];
    expect(coverage.extra.map((e) => e.title)).toEqual(['Unreadable lines', 'errors.jsonl records by phase', 'errors.jsonl records (first 20)']);
    expect(coverage.extra[1].rows).toEqual([
      { phase: 'engine', window: 0, previous: 1, 'Δ': '-1' }, { phase: 'hook', window: 1, previous: 0, 'Δ': '+1' },
      { phase: 'stream', window: 0, previous: 1, 'Δ': '-1' }, { phase: 'tool_execution', window: 0, previous: 1, 'Δ': '-1' },
    ]);
  });

  it('week A: no phase is called new, its previous window holding no record; the verdicts are', async () => {
    const weekA = await runJson<ReportJson>(['report', HOME, ...WEEK_A]);
    expect(weekA.run.code).toBe(0);
    expect(weekA.value.headline).toEqual([
      { kind: 'snapshot-verdicts', count: 3, text: '3 subagent stream indices not clean: 2 misattributed-to-main, 1 split (previous window: 0)', section: 'snapshot-attribution' },
    ]);
  });
});

describe('report headline of an empty window', () => {
  const EMPTY = ['--since', '2026-07-10', '--until', '2026-07-17', '--allow-empty'];

  it('flags nothing: an empty headline in JSON, one line saying so in Markdown and HTML', async () => {
    const json = await runJson<ReportJson>(['report', HOME, ...EMPTY]);
    expect([json.run.code, json.value.headline, json.value.empty]).toEqual([0, [], 'the inputs span 2026-08-10T02:14:05.118Z … 2026-08-21T02:17:41.361Z']);
    const md = (await runCli(['report', HOME, ...EMPTY])).stdout;
    expect(md.slice(md.indexOf('## Findings'), md.indexOf('## Input coverage'))).toBe(`## Findings\n\n- ${NOTHING}\n\n`);
    const html = (await runCli(['report', HOME, ...EMPTY, '--format', 'html'])).stdout;
    expect(html).toContain(`<section id="findings" class="findings">\n<h2>Findings</h2>\n<ul>\n<li>${NOTHING}</li>\n</ul>\n</section>\n<section id="input-coverage">`);
  });
});

describe('report headline in HTML, and JSON into a file', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('HTML: the findings open <main>, each linking to the id of its section', async () => {
    const run = await runCli(['report', HOME, ...WEEK_B, '--format', 'html']);
    expect(run.code).toBe(0);
    const block = run.stdout.slice(run.stdout.indexOf('<main>\n'), run.stdout.indexOf('<section id="input-coverage">'));
    expect(block).toBe([
      '<main>', '<section id="findings" class="findings">', '<h2>Findings</h2>', '<ul>',
      ...WEEK_B_HEADLINE.map((f) => `<li>${f.text} → <a href="#${f.section}">${{
        'silent-failures': 'Silent subagent failures', 'retries-by-type': 'Retries by type', 'snapshot-attribution': 'Snapshot attribution verdicts', 'input-coverage': 'Input coverage',
      }[f.section]}</a></li>`),
      '</ul>', '</section>', '',
    ].join('\n'));
    for (const f of WEEK_B_HEADLINE) expect(run.stdout).toContain(`<section id="${f.section}">`);
  });

  it('--out NAME.json writes the JSON document (no --format needed) and lists the file', async () => {
    const out = path.join(dir, 'weekly.json');
    const run = await runCli(['report', HOME, ...WEEK_B, '--out', out]);
    expect(run).toEqual({ code: 0, stdout: `${out}\n`, stderr: WARNING });
    expect((JSON.parse(fs.readFileSync(out, 'utf8')) as ReportJson).headline).toEqual(WEEK_B_HEADLINE);
    expect(fs.readdirSync(dir)).toEqual(['weekly.json']);
  });
});
