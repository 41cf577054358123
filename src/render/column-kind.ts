// What a table may do with a column when it is too wide for the terminal. Numbers, identifiers,
// paths, file:line and times are never wrapped or cut (half an id is another id); free text
// (messages, summaries, JSON) is cut with `…`, its whole value being in --format json and md.
import stringWidth from 'string-width';
import { cellText } from './cell-text.js';
import { type Cell, ExactNumber, type Tabular } from './types.js';

export type ColumnKind = 'number' | 'atom' | 'text';

/**
 * Names that say identifier, path, time or a name from a short list (an event, a status): such a
 * column is never cut, whatever its values look like (`[WARN] LLM`, `tasks/*.output (20 files)`).
 */
const ATOM_NAME = /(^|[_\s])(id|ids|key|path|paths|file|dir|where|ts|time|timestamp|at|date|session|agent|event|source|kind|type|status|name|model|category|level)$|^file:line$/i;
/** No identifier or path is this wide: a value past it is text (a blob, a prompt) even without a space. */
const ATOM_WIDEST = 200;

const isNumber = (v: Cell | undefined) => typeof v === 'number' || v instanceof ExactNumber;
const isNested = (v: Cell | undefined) => typeof v === 'object' && v !== null && !(v instanceof ExactNumber);
/** Reads as prose or JSON: a space or line break inside, or the shape of a JSON object or list. */
const looksLikeText = (text: string) => /\S\s+\S/.test(text) || /^[[{]/.test(text);

/**
 * Each column's kind, from its values (their JavaScript types are the result's column types):
 * `number` when every value that is not NULL is a number (and one is); `text` when a value is a
 * nested object or list; else `atom` when its name is an identifier's (ATOM_NAME); else `text`
 * when a value is wider than ATOM_WIDEST or a quarter or more of its values read as prose or JSON.
 */
export function columnKinds(t: Tabular): ColumnKind[] {
  return t.columns.map((c) => {
    const values = t.rows.map((row) => row[c]).filter((v) => v !== null && v !== undefined);
    if (values.length > 0 && values.every(isNumber)) return 'number';
    if (values.some(isNested)) return 'text';
    const texts = values.map((v) => cellText(v ?? null)).filter((text) => text !== '');
    if (ATOM_NAME.test(c)) return 'atom';
    if (texts.some((text) => text.length > ATOM_WIDEST && stringWidth(text) > ATOM_WIDEST)) return 'text';
    const prose = texts.filter(looksLikeText).length;
    return prose > 0 && prose * 4 >= texts.length ? 'text' : 'atom';
  });
}
