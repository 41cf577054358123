import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cut } from '../../../src/render/cut-text.js';
import { renderNameList } from '../../../src/render/name-list.js';

describe('renderNameList', () => {
  const items = [
    { name: 'short', text: 'Which timeout layer fired, and did it take effect?' },
    { name: 'a-longer-name', text: 'Census of every tasks/<taskId>.output loaded, by category.' },
  ];

  it('without a width: one line per item, names padded to the longest, texts whole', () => {
    expect(renderNameList(items)).toBe(
      'short          Which timeout layer fired, and did it take effect?\n' +
      'a-longer-name  Census of every tasks/<taskId>.output loaded, by category.\n',
    );
  });

  it('with a width: each text cut with …, at a word when one ends in the last half; no line wider than the width', () => {
    const lines = renderNameList(items, 50).split('\n').slice(0, -1);
    expect(lines).toEqual(['short          Which timeout layer fired, and did…', 'a-longer-name  Census of every tasks/<taskId>.out…']);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(50);
  });

  it('shows control characters in a name or a text as escapes', () => {
    expect(renderNameList([{ name: 'a\x1b[2J', text: 'b\tc\nd' }])).toBe('a\\u001b[2J  b\\u0009c\\u000ad\n');
  });
});

describe('cut', () => {
  it('keeps a text that fits, and cuts a long word anywhere, by display width', () => {
    expect(cut('fits here', 9)).toBe('fits here');
    expect(cut('abcdefghij', 5)).toBe('abcd…');
    expect(cut('测试响应测试响应', 7)).toBe('测试响…');
    expect(cut('one two three', 8)).toBe('one two…');
  });
});
