// DuckDB's error message as trajaudit shows it. Its first line is the summary that joins
// trajaudit's own one-line message; the lines under it are DuckDB's hints (`Did you mean
// "events"?`, `Candidate bindings: …`, the `LINE 1:` excerpt of the SQL with a caret under the
// place), kept and indented. The excerpt quotes the SQL text, so its control characters are
// shown as escapes, and the caret is moved to stay under the same character. DuckDB's advice to
// install or load an extension is left out: trajaudit turns that off (database.ts), and sql refuses
// INSTALL, LOAD and SET.
import stringWidth from 'string-width';
import { inlineText } from '../render/visible-text.js';
import { graphemes } from '../render/graphemes.js';

export interface DuckdbErrorText {
  /** The first line, without the binding's `Failed to extract statements: `. */
  summary: string;
  /** The hint lines, each after a newline and two spaces ('' when there are none): append it to the message. */
  detail: string;
}

/** The lines of DuckDB's "Please try installing and loading the … extension" advice. */
const EXTENSION_ADVICE = /^(Please try installing and loading the .* extension|INSTALL \S+;$|LOAD \S+;$|Alternatively, consider enabling auto-install|SET auto(install|load)_known_extensions=)/;

export function duckdbErrorText(error: unknown): DuckdbErrorText {
  const message = error instanceof Error ? error.message : String(error);
  const [first, ...rest] = message.split('\n');
  // DuckDB's blank lines only separate its parts; under trajaudit's line they would split the message.
  const lines = rest.filter((line) => line.trim() !== '' && !EXTENSION_ADVICE.test(line));
  const shown: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const excerpt = /^(LINE \d+: )(.*)$/.exec(lines[i]);
    const caret = /^( *)\^$/.exec(lines[i + 1] ?? '');
    if (excerpt && caret) {
      shown.push(...excerptWithCaret(excerpt[1], excerpt[2], caret[1].length));
      i += 1;
    } else {
      shown.push(inlineText(lines[i]));
    }
  }
  return {
    summary: inlineText(first.replace(/^Failed to extract statements: /, '')),
    detail: shown.map((line) => `\n  ${line}`).join(''),
  };
}

/**
 * The excerpt line with its characters escaped, and the caret line under it. DuckDB places the
 * caret at `column` by the display width of the characters before it, a character it cannot show
 * (a control character, a tab) counting 0: the same walk finds that character in the excerpt.
 */
function excerptWithCaret(label: string, text: string, column: number): [string, string] {
  let width = stringWidth(label);
  let at = 0;
  for (const { segment, index } of graphemes(text)) {
    const shownAsIs = inlineText(segment) === segment;
    const segmentWidth = shownAsIs ? stringWidth(segment) : 0;
    // A tab or line separator before the token DuckDB points at is passed over; any other character there is the one.
    if (width >= column && (segmentWidth > 0 || !/^\s+$/u.test(segment))) break;
    width += segmentWidth;
    at = index + segment.length;
  }
  const before = `${label}${inlineText(text.slice(0, at))}`;
  // A caret past the excerpt's end (DuckDB points after the last token) stays as far past it.
  const caretAt = stringWidth(before) + Math.max(0, column - width);
  return [`${before}${inlineText(text.slice(at))}`, `${' '.repeat(caretAt)}^`];
}
