/**
 * A number JavaScript cannot hold exactly (a BIGINT past 2^53, a HUGEINT, a wide DECIMAL, 1e400
 * in JSON), kept as its digits; renderers print the digits, and JSON output prints them as a number.
 */
export class ExactNumber {
  /** How many were made in this process: while none, JSON output needs no special handling. */
  static made = 0;

  constructor(readonly digits: string) {
    ExactNumber.made += 1;
  }

  /** A number as JavaScript's when it prints back the same (a safe integer, up to 15 significant digits), else its digits. */
  static from(digits: string): number | ExactNumber {
    const n = Number(digits);
    if (!Number.isFinite(n)) return new ExactNumber(digits);
    // Past 2^53 even an integer a double holds exactly prints as other digits (-2^63: …776000).
    if (/^-?\d+$/.test(digits)) return Number.isSafeInteger(n) ? n : new ExactNumber(digits);
    const significant = digits.replace(/^[-+]/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
    // Below the smallest normal double a number loses digits (1e-400 is 0, 1.23456e-320 rounds).
    const tooSmall = significant !== '' && Math.abs(n) < 2.2250738585072014e-308;
    return significant.length <= 15 && !tooSmall ? n : new ExactNumber(digits);
  }

  toString(): string {
    return this.digits;
  }
}

/** A value as it leaves the database: plain JS (timestamps as ISO-8601 UTC strings), or an ExactNumber. */
export type Cell = string | number | boolean | null | ExactNumber | Cell[] | { [key: string]: Cell };
export type Row = Record<string, Cell>;

/** What every tabular command produces: column order plus row objects keyed by column name. */
export interface Tabular {
  columns: string[];
  rows: Row[];
  /** Columns a query named twice, shown under a new name (uniqueColumnNames). */
  renamed?: { from: string; to: string }[];
}

/** How the table format is laid out; json, csv and md ignore these. */
export interface RenderOptions {
  /** The width a table fits to (fit-columns.ts); none (a pipe): every cell whole, one line per row. */
  width?: number;
  /** Whether NULL may be dimmed with an ANSI code: stdout is a colour terminal and NO_COLOR is unset. */
  color?: boolean;
  /** Columns holding one value on every row (of two or more) are said once under the table instead. */
  foldConstantColumns?: boolean;
}

export type Renderer = (table: Tabular, options?: RenderOptions) => string;
