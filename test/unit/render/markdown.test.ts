import { describe, expect, it } from 'vitest';
import { escapeMarkdownCell } from '../../../src/render/markdown.js';

describe('escapeMarkdownCell: trajectory text shows as written', () => {
  it.each([
    ['first line\nsecond line', 'first line<br>second line'],
    ['crlf\r\nline', 'crlf<br>line'],
    ['lone \r return', 'lone \\u000d return'],
    ['![pixel](http://example.com/t.png) [click](http://example.com/)', '\\!\\[pixel\\](http://example.com/t.png) \\[click\\](http://example.com/)'],
    ['&lt;b&gt; <b> & **bold** `code` ~~strike~~', '&amp;lt;b&amp;gt; &lt;b&gt; &amp; \\*\\*bold\\*\\* \\`code\\` \\~\\~strike\\~\\~'],
    ['a | b \\ c', 'a \\| b \\\\ c'],
    ['p50_elapsed_ms _emphasis_ 中_文', 'p50_elapsed_ms \\_emphasis\\_ 中_文'],
  ])('%j', (text, md) => {
    expect(escapeMarkdownCell(text)).toBe(md);
  });
});

describe('renderMarkdown: alignment', () => {
  it('right-aligns a column of numbers (NULLs among them), never one of NULLs alone', async () => {
    const { default: renderMarkdown } = await import('../../../src/render/markdown.js');
    const table = { columns: ['n', 'none', 'text'], rows: [{ n: 1, none: null, text: 'a' }, { n: null, none: null, text: 'b' }] };
    expect(renderMarkdown(table)).toBe('| n | none | text |\n| ---: | --- | --- |\n| 1 |  | a |\n|  |  | b |\n');
  });
});
