// The renderers and the chart pipeline on hand-made data, including hostile strings.
import { describe, expect, it } from 'vitest';
import { pollutionShareSpec, retriesPerDaySpec } from '../../../src/report/charts.js';
import { renderReportHtml } from '../../../src/report/render-html.js';
import { headingAnchor, renderReportMarkdown } from '../../../src/report/render-md.js';
import { assertInert, renderSvg } from '../../../src/report/render-svg.js';
import type { ReportData } from '../../../src/report/types.js';
import { reportWindows } from '../../../src/report/window.js';

const hostile = '<script>alert(1)</script> <img src=x onerror=alert(2)> "q" & \'a\' | pipe';

function data(svg = '<svg></svg>'): ReportData {
  return {
    windows: reportWindows('2026-08-17', '2026-08-24'),
    inputs: ['fixtures/<home>'],
    headline: [],
    sections: [{
      id: 'silent-failures', title: 'Silent subagent failures', query: 'silent-subagent-failures', about: 'about',
      table: { columns: ['agent_id', 'error'], rows: [{ agent_id: 'a<b', error: hostile }] },
      notes: ['rows: 1'], charts: [{ id: 'c', title: 'Chart', svg }],
    }],
  };
}

describe('renderReportHtml', () => {
  it('escapes every string from the data and writes no script, no element from the data, no external URL', () => {
    const html = renderReportHtml(data());
    expect(html).not.toMatch(/<script|<img|<code>fixtures\/<home>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt; &quot;q&quot; &amp; &#39;a&#39; | pipe');
    expect(html).toContain('<code>fixtures/&lt;home&gt;</code>');
    expect(html).toContain("content=\"default-src 'none'; style-src 'unsafe-inline'\"");
    expect(html.match(/https?:\/\/[^\s"'<>)]*/g) ?? []).toEqual([]);
    expect(html).toContain('<dt>Window</dt><dd>2026-08-17T00:00:00Z → 2026-08-24T00:00:00Z (7 days)</dd>');
  });
});

describe('renderReportMarkdown', () => {
  it('escapes pipes and angle brackets in cells, and says once that charts are not included when there is no file for them', () => {
    const md = renderReportMarkdown(data(), { chartFile: () => null });
    expect(md).toContain('| a&lt;b | &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt; "q" &amp; \'a\' \\| pipe |');
    expect(md.split('Charts are not included: Markdown written to a stream (stdout, a pipe) has no place for SVG files')).toHaveLength(2);
    const withFiles = renderReportMarkdown(data(), { chartFile: (id) => `r-${id}.svg` });
    expect(withFiles).toContain('![Chart](r-c.svg)');
    expect(withFiles).not.toContain('not included');
  });

  it('an empty window says so at the top', () => {
    const md = renderReportMarkdown({ ...data(), empty: 'the inputs span A … B' }, { chartFile: () => null });
    expect(md).toContain('- **This window holds no event**: the inputs span A … B.');
    expect(renderReportHtml({ ...data(), empty: 'the inputs span <A> … B' })).toContain('<p class="empty"><strong>This window holds no event</strong>: the inputs span &lt;A&gt; … B.</p>');
  });
});

describe('the findings at the top', () => {
  const finding = { kind: 'silent-failures', count: 1, text: `1 subagent failed: ${hostile}`, section: 'silent-failures' };

  it('Markdown: one escaped line per finding, linking to the heading GitHub makes of its section title, before the first section', () => {
    const md = renderReportMarkdown({ ...data(), headline: [finding] }, { chartFile: () => null });
    expect(md.slice(md.indexOf('## Findings'), md.indexOf('## Silent subagent failures'))).toBe(
      '## Findings\n\n- 1 subagent failed: &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt; "q" &amp; \'a\' \\| pipe → [Silent subagent failures](#silent-subagent-failures)\n\n',
    );
  });

  it('HTML: one escaped item per finding, linking to its section\'s id; nothing to flag is one item', () => {
    const html = renderReportHtml({ ...data(), headline: [finding] });
    expect(html).toContain('<li>1 subagent failed: &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt; &quot;q&quot; &amp; &#39;a&#39; | pipe → <a href="#silent-failures">Silent subagent failures</a></li>');
    expect(html.indexOf('<section id="findings"')).toBeLessThan(html.indexOf('<section id="silent-failures">'));
    expect(renderReportHtml(data()).match(/<section id="findings" class="findings">\n<h2>Findings<\/h2>\n<ul>\n(.*)\n<\/ul>/)?.[1]).toBe(
      '<li>Nothing to flag this window: no silent subagent failure, no exhausted retry budget, no snapshot verdict other than clean, no errors.jsonl phase new since the previous window.</li>',
    );
  });

  it('GitHub heading anchors: lower case, punctuation dropped, spaces as hyphens', () => {
    expect(['Test pollution of tasks/', 'Snapshot attribution verdicts', 'Input coverage'].map(headingAnchor)).toEqual([
      'test-pollution-of-tasks', 'snapshot-attribution-verdicts', 'input-coverage',
    ]);
  });
});

describe('renderSvg', () => {
  const days = ['2026-08-17', '2026-08-18'];
  const spec = retriesPerDaySpec(days, [{ day: '2026-08-17', type: hostile, events: 2 }, { day: '2026-08-18', type: 'retry', events: 1 }]);

  it('renders the same bytes every time, with data text escaped and nothing active or external', async () => {
    const [a, b] = [await renderSvg(spec, 'Retries <per> day'), await renderSvg(spec, 'Retries <per> day')];
    expect(a).toBe(b);
    expect(a.startsWith('<svg role="img" aria-label="Retries &lt;per&gt; day" xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(a).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(a).not.toMatch(/<script|<img|href=|url\(|\son[a-z]+="/);
    expect(a.match(/https?:\/\/[^\s"]*/g)).toEqual(['http://www.w3.org/2000/svg']);
  });

  it('refuses markup that could run or fetch, but not data text that merely says so', () => {
    for (const bad of ['<svg><a href="http://x"><path/></a></svg>', '<svg><g onload="x()"/></svg>', '<svg><g style="fill:url(http://x)"/></svg>', '<svg><script>1</script></svg>', '<svg><image/></svg>']) {
      expect(() => assertInert(bad, 'T'), bad).toThrow(/chart "T" produced SVG matching/);
    }
    expect(() => assertInert('<svg aria-label="a onerror=1 url(http://x)"><text>&lt;script&gt; href=x url(http://y)</text></svg>', 'T')).not.toThrow();
  });

  it('draws one arc per category with files', async () => {
    const svg = await renderSvg(pollutionShareSpec([{ category: 'test', files: 7, share: 0.35 }, { category: 'real', files: 13, share: 0.65 }, { category: 'empty', files: 0, share: 0 }]), 'Share');
    expect(svg.match(/aria-roledescription="arc mark"/g)).toHaveLength(2);
  });
});
