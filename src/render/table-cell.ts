// A cell as the table and expanded formats show it: NULL as `NULL` (an empty string stays empty,
// so the two can be told apart), dim on a colour terminal, and control characters as escapes.
import { cellText } from './cell-text.js';
import type { Cell } from './types.js';
import { visibleText } from './visible-text.js';

export const NULL_TEXT = 'NULL';

/**
 * Text for the terminal: as visibleText, and a tab as \u0009 too, like the other control characters.
 * The box measures a tab as one column while a terminal expands it to the next tab stop, so a cell
 * holding one would stick out of its border (shell commands and output in payloads hold tabs).
 */
export const terminalText = (text: string) => visibleText(text).replace(/\t/g, '\\u0009');

export interface ShownCell {
  text: string;
  isNull: boolean;
}

export function shownCell(value: Cell | undefined): ShownCell {
  if (value === null || value === undefined) return { text: NULL_TEXT, isNull: true };
  return { text: terminalText(cellText(value)), isNull: false };
}

/** ANSI dim (SGR 2, ended by SGR 22), put on after the layout: widths are measured without it. */
export const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;
