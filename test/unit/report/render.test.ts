// The renderers and the chart pipeline on hand-made data, including hostile strings.
import { describe, expect, it } from 'vitest';
import { pollutionShareSpec, retriesPerDaySpec } from '../../../src/report/charts.js';
import { renderReportHtml } from '../../../src/report/render-html.js';
import { renderReportMarkdown } from '../../../src/report/render-md.js';
import { assertInert, renderSvg } from '../../../src/report/render-svg.js';
import type { ReportData } from '../../../src/report/types.js';
import { reportWindows } from '../../../src/report/window.js';

const hostile = '<script>alert(1)</script> <img src=x onerror=alert(2)> "q" & \'a\' | pipe';

function data(svg = '<svg></svg>'): ReportData {
  return {
    windows: reportWindows('2026-08-17', '2026-08-24'),
    inputs: ['fixtures/<home>'],
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
