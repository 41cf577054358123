// DuckDB's error messages as DuckDB 1.x writes them (copied from real errors), shown by trajaudit:
// the hints kept under the first line, the SQL excerpt escaped, its caret under the same character.
import { describe, expect, it } from 'vitest';
import { duckdbErrorText } from '../../../src/db/duckdb-error-text.js';

const text = (message: string) => duckdbErrorText(new Error(message));

describe('duckdbErrorText', () => {
  it('keeps the hints and the caret line, indented, without the blank lines between them', () => {
    expect(text('Catalog Error: Table with name event does not exist!\nDid you mean "events"?\n\nLINE 1: SELECT * FROM event\n                      ^')).toEqual({
      summary: 'Catalog Error: Table with name event does not exist!',
      detail: '\n  Did you mean "events"?\n  LINE 1: SELECT * FROM event\n                        ^',
    });
  });

  it('drops the binding prefix of a parser error; a message of one line has no detail', () => {
    expect(text('Failed to extract statements: Parser Error: syntax error at end of input')).toEqual({ summary: 'Parser Error: syntax error at end of input', detail: '' });
    expect(text('Failed to extract statements: Parser Error: syntax error at or near "SELEC"\n\nLINE 1: SELEC 1\n        ^').detail).toBe('\n  LINE 1: SELEC 1\n          ^');
  });

  it('shows control characters of the SQL as escapes, and moves the caret to stay under its character', () => {
    const missing = 'Catalog Error: Table with name evnts does not exist!\nDid you mean "events"?\n\n';
    // DuckDB counts a character it cannot show (ESC, a tab) as 0 columns wide.
    expect(text(`${missing}LINE 1: SELECT 'a\x1b[2J' FROM evnts\n                           ^`).detail)
      .toBe(`\n  Did you mean "events"?\n  LINE 1: SELECT 'a\\u001b[2J' FROM evnts\n${' '.repeat(35)}^`);
    expect(text(`${missing}LINE 1: SELECT\t'x'\tFROM evnts\n                      ^`).detail)
      .toBe(`\n  Did you mean "events"?\n  LINE 1: SELECT\\u0009'x'\\u0009FROM evnts\n${' '.repeat(36)}^`);
    // A CJK character and an emoji take 2 columns, in DuckDB's count and on the screen: the caret only moves by the indent.
    expect(text(`${missing}LINE 1: SELECT '测试响应' FROM evnts\n                               ^`).detail)
      .toBe(`\n  Did you mean "events"?\n  LINE 1: SELECT '测试响应' FROM evnts\n${' '.repeat(33)}^`);
    expect(text(`${missing}LINE 1: SELECT '👩\u200d💻' AS a FROM evnts\n                              ^`).detail)
      .toBe(`\n  Did you mean "events"?\n  LINE 1: SELECT '👩\u200d💻' AS a FROM evnts\n${' '.repeat(32)}^`);
    // The caret on a control character: under its escape.
    const at = text('Failed to extract statements: Parser Error: syntax error at or near "\x1b"\n\nLINE 1: SELECT ev\x1b]0;pwned\x07ent FROM events\n                 ^');
    expect(at).toEqual({
      summary: 'Parser Error: syntax error at or near "\\u001b"',
      detail: `\n  LINE 1: SELECT ev\\u001b]0;pwned\\u0007ent FROM events\n${' '.repeat(19)}^`,
    });
  });

  it('a caret past the end of the excerpt stays as far past it', () => {
    expect(text('Parser Error: x\n\nLINE 1: SELECT \x07\n                 ^').detail).toBe(`\n  LINE 1: SELECT \\u0007\n${' '.repeat(25)}^`);
  });

  it('leaves out the advice to install or load an extension, which trajaudit does not do', () => {
    const message = 'Missing Extension Error: File s3://b/x.csv requires the extension httpfs to be loaded\nPlease try installing and loading the httpfs extension by running:\nINSTALL httpfs;\nLOAD httpfs;\n\nAlternatively, consider enabling auto-install and auto-load by running:\nSET autoinstall_known_extensions=1;\nSET autoload_known_extensions=1;\n\nLINE 1: SELECT * FROM read_csv(\'s3://b/x.csv\')\n                      ^';
    expect(text(message).detail).toBe("\n  LINE 1: SELECT * FROM read_csv('s3://b/x.csv')\n                        ^");
  });
});
