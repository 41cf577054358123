// One record per block, as psql's expanded mode (`\x`): a `-[ RECORD n ]` rule, then a
// `column | value` line per column. Used when a table's ids, paths, times and numbers alone are
// wider than the terminal. Values are whole: free text wraps to the width at spaces, a list of
// ids after its commas; an id, a path or a time longer than the room sticks out, never split.
import stringWidth from 'string-width';
import type { ColumnKind } from './column-kind.js';
import { dim, type ShownCell } from './table-cell.js';
import { wrapText } from './wrap-text.js';

/** Below this much room for a value, wrapping would make a column of a few characters: lines stay whole. */
const NARROWEST_WRAP = 16;

export interface ExpandedOptions {
  width?: number;
  color?: boolean;
}

/** `line` in lines of at most `room` columns, broken only after the commas of a `, ` list. */
function wrapList(line: string, room: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const item of line.split(/(?<=,) /)) {
    const joined = current === '' ? item : `${current} ${item}`;
    if (current !== '' && stringWidth(joined) > room) {
      lines.push(current);
      current = item;
    } else current = joined;
  }
  lines.push(current);
  return lines;
}

function valueLines(cell: ShownCell, kind: ColumnKind, room: number | undefined): string[] {
  const lines = cell.text.split('\n');
  if (room === undefined || room < NARROWEST_WRAP || cell.isNull) return lines;
  if (kind === 'text') return lines.flatMap((line) => wrapText(line, room).split('\n'));
  if (kind === 'atom') return lines.flatMap((line) => wrapList(line, room));
  return lines;
}

export function renderExpanded(names: string[], kinds: ColumnKind[], rows: ShownCell[][], options: ExpandedOptions = {}): string[] {
  const nameWidth = names.reduce((most, name) => Math.max(most, stringWidth(name)), 0);
  const room = options.width === undefined ? undefined : options.width - nameWidth - 3;
  const blocks = rows.map((cells) => cells.map((cell, c) => valueLines(cell, kinds[c], room)));
  let valueWidth = 0;
  for (const block of blocks) for (const lines of block) for (const line of lines) valueWidth = Math.max(valueWidth, stringWidth(line));
  if (room !== undefined) valueWidth = Math.min(valueWidth, Math.max(room, 0));
  const out: string[] = [];
  blocks.forEach((block, r) => {
    const label = `-[ RECORD ${r + 1} ]`;
    // The `+` marks the column of the `|` below, when the label leaves room for it (psql's rule).
    out.push(label.length <= nameWidth ? `${label}${'-'.repeat(nameWidth + 1 - label.length)}+${'-'.repeat(valueWidth + 1)}` : `${label}${'-'.repeat(Math.max(0, nameWidth + 3 + valueWidth - label.length))}`);
    block.forEach((lines, c) => {
      const cell = rows[r][c];
      lines.forEach((line, i) => {
        const name = i === 0 ? names[c] : '';
        const value = cell.isNull && options.color ? dim(line) : line;
        const lead = `${name}${' '.repeat(nameWidth - stringWidth(name))} |`;
        out.push(value === '' ? lead : `${lead} ${value}`);
      });
    });
  });
  return out;
}
