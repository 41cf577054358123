// A list for the terminal, one line per item: its name padded to the longest, then a one-line text
// cut to the width with `…`, as `npm run`, `gh help` and `dbt ls` list theirs. It is an index
// to look the items up in, not their text: `--format json` and the item's own page say it whole.
import stringWidth from 'string-width';
import { inlineText } from './visible-text.js';

export interface NamedLine {
  name: string;
  text: string;
}

const GAP = '  ';
const segmenter = new Intl.Segmenter();

/** Each item on one line; with a width (a terminal's, or $COLUMNS), each text cut to fit it. */
export function renderNameList(items: NamedLine[], width?: number): string {
  const names = items.map((item) => inlineText(item.name));
  const nameWidth = names.reduce((most, name) => Math.max(most, stringWidth(name)), 0);
  const lines = items.map((item, i) => {
    const lead = `${names[i]}${' '.repeat(nameWidth - stringWidth(names[i]))}${GAP}`;
    const text = inlineText(item.text);
    return `${lead}${width === undefined ? text : cut(text, width - stringWidth(lead))}`.trimEnd();
  });
  return lines.map((line) => `${line}\n`).join('');
}

/** `text` in at most `room` columns: whole when it fits, else up to a space (or anywhere, in a long word) and `…`. */
export function cut(text: string, room: number): string {
  if (stringWidth(text) <= room) return text;
  if (room < 1) return '';
  let kept = '';
  let keptWidth = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (keptWidth + w > room - 1) break;
    kept += segment;
    keptWidth += w;
  }
  // At a word's end when one ends in the last half, so that no word shows cut in two.
  const space = /\s/.test(text[kept.length] ?? '') ? kept.length : kept.lastIndexOf(' ');
  const atWord = space > kept.length / 2 ? kept.slice(0, space) : kept;
  return `${atWord.replace(/[\s,;:]+$/, '')}…`;
}
