// JSON text from DuckDB as cells, keeping every number exact: JSON.parse would turn
// 12345678901234567890 into 12345678901234567000 and 1e400 into Infinity (printed as null).
// A number with at most 15 significant digits and an exponent under 100 prints back as the same
// number, so text without 16 digits in a row (a decimal point between them allowed) or a 3-digit
// exponent takes JSON.parse.
import { type Cell, ExactNumber } from '../render/types.js';

const RISKY = /\d(?:\.?\d){15}|[eE][-+]?\d{3}/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

/**
 * Parses JSON text; text that is not JSON is returned as it is. DuckDB writes a non-finite double
 * inside JSON as a bare NaN or Infinity: those are read as their names ("NaN"), as a non-finite
 * DOUBLE column is, so that a column keeps one shape.
 */
export function parseJsonExact(text: string): Cell {
  try {
    if (!RISKY.test(text)) return JSON.parse(text) as Cell;
  } catch {
    if (!NON_FINITE.test(text)) return text;
  }
  try {
    const parser = new ExactParser(text);
    const value = parser.value();
    parser.end();
    return value;
  } catch {
    return text;
  }
}

const NON_FINITE = /NaN|Infinity/;

class ExactParser {
  private at = 0;
  constructor(private readonly text: string) {}

  private space(): void {
    while (this.at < this.text.length && ' \t\r\n'.includes(this.text[this.at])) this.at += 1;
  }

  private token(pattern: RegExp): string {
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (!match) throw new SyntaxError(`unexpected character at ${this.at}`);
    this.at = pattern.lastIndex;
    return match[0];
  }

  end(): void {
    this.space();
    if (this.at !== this.text.length) throw new SyntaxError(`unexpected character at ${this.at}`);
  }

  /** One JSON value, with an explicit stack: a line nested thousands deep must not overflow the call stack. */
  value(): Cell {
    const stack: { container: Cell[] | Record<string, Cell>; key: string | null }[] = [];
    for (;;) {
      this.space();
      const c = this.text[this.at];
      let value: Cell;
      if (c === '{' || c === '[') {
        this.at += 1;
        this.space();
        const container: Cell[] | Record<string, Cell> = c === '{' ? {} : [];
        if (this.text[this.at] !== (c === '{' ? '}' : ']')) {
          stack.push({ container, key: c === '{' ? this.key() : null });
          continue;
        }
        this.at += 1;
        value = container;
      } else value = this.scalar(c);
      // Put the value into its container; close every container it completes.
      for (;;) {
        const top = stack.at(-1);
        if (!top) return value;
        if (top.key === null) (top.container as Cell[]).push(value);
        // defineProperty: a "__proto__" key is data here, as JSON.parse keeps it.
        else Object.defineProperty(top.container, top.key, { value, enumerable: true, writable: true, configurable: true });
        this.space();
        const isArray = top.key === null;
        const next = this.token(isArray ? /[,\]]/y : /[,}]/y);
        if (next === ',') {
          if (!isArray) top.key = this.key();
          break;
        }
        stack.pop();
        value = top.container;
      }
    }
  }

  private key(): string {
    this.space();
    const key = JSON.parse(this.token(STRING)) as string;
    this.space();
    this.token(/:/y);
    return key;
  }

  private scalar(c: string | undefined): Cell {
    if (c === '"') return JSON.parse(this.token(STRING)) as string;
    const word = /true|false|null|NaN|-?Infinity/y;
    word.lastIndex = this.at;
    const literal = word.exec(this.text);
    if (literal) {
      this.at = word.lastIndex;
      return /Na|In/.test(literal[0]) ? literal[0] : (JSON.parse(literal[0]) as Cell);
    }
    return ExactNumber.from(this.token(NUMBER));
  }
}
