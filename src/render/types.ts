/** A value as it leaves the database: already plain JS (no bigint, timestamps as ISO-8601 UTC strings). */
export type Cell = string | number | boolean | null | Cell[] | { [key: string]: Cell };
export type Row = Record<string, Cell>;

/** What every tabular command produces: column order plus row objects keyed by column name. */
export interface Tabular {
  columns: string[];
  rows: Row[];
}

export type Renderer = (table: Tabular) => string;
