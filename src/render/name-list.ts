// A list for the terminal, one line per item: its name padded to the longest, then a one-line text
// cut to the width with `…`, as `npm run`, `gh help` and `dbt ls` list theirs. It is an index
// to look the items up in, not their text: `--format json` and the item's own page say it whole.
import stringWidth from 'string-width';
import { cut } from './cut-text.js';
import { inlineText } from './visible-text.js';

export interface NamedLine {
  name: string;
  text: string;
}

const GAP = '  ';

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
