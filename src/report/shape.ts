// Pure: a query's rows for the window (and the previous window) → the section's short table.
import type { Cell, Row, Tabular } from '../render/types.js';
import type { CompareShape, CountByShape, ListShape, SectionShape } from './sections.js';

export interface Shaped {
  table: Tabular;
  notes: string[];
}

const isNumeric = (t: Tabular, c: string) => t.rows.length > 0 && t.rows.every((r) => r[c] === null || typeof r[c] === 'number');
const round = (n: number) => Math.round(n * 10_000) / 10_000;
const num = (v: Cell | undefined) => (typeof v === 'number' ? v : 0);

/** `+3`, `-2`, `0`; a difference in a ratio keeps 4 decimals. */
export function formatDelta(current: number, previous: number): string {
  const d = round(current - previous);
  return d > 0 ? `+${d}` : String(d);
}

function present(t: Tabular, wanted: string[] | undefined): string[] {
  return wanted ? wanted.filter((c) => t.columns.includes(c)) : t.columns;
}

function shapeCompare(shape: CompareShape, current: Tabular, previous: Tabular | null): Shaped {
  const both = { columns: current.columns, rows: [...current.rows, ...(previous?.rows ?? [])] };
  const columns = present(current, shape.columns);
  const keys = shape.keys ?? columns.filter((c) => !isNumeric(both, c));
  const compare = previous ? (shape.compare ?? columns.filter((c) => isNumeric(both, c)).slice(0, 1)).filter((c) => columns.includes(c)) : [];
  const keyOf = (r: Row) => JSON.stringify(keys.map((k) => r[k] ?? null));
  const before = new Map((previous?.rows ?? []).map((r) => [keyOf(r), r]));
  const seen = new Set(current.rows.map(keyOf));
  // A key present only in the previous window (e.g. a retry type that stopped) shows its counts as 0 now.
  const counts = columns.filter((c) => !keys.includes(c) && isNumeric(both, c) && !(shape.measures ?? []).includes(c));
  const gone = (previous?.rows ?? []).filter((r) => !seen.has(keyOf(r)))
    .map((r) => Object.fromEntries(columns.map((c) => [c, keys.includes(c) ? r[c] : counts.includes(c) ? 0 : null])) as Row);
  const outColumns = columns.flatMap((c) => (compare.includes(c) ? [c, `${c} (prev)`, `Δ ${c}`] : [c]));
  const rows = [...current.rows, ...gone].map((r) => {
    const prev = before.get(keyOf(r));
    const out: Row = {};
    for (const c of columns) {
      out[c] = r[c] ?? null;
      if (compare.includes(c)) {
        out[`${c} (prev)`] = num(prev?.[c]);
        out[`Δ ${c}`] = formatDelta(num(r[c]), num(prev?.[c]));
      }
    }
    return out;
  });
  return { table: { columns: outColumns, rows }, notes: previous ? [] : [notWindowed] };
}

function shapeCountBy(shape: CountByShape, current: Tabular, previous: Tabular | null): Shaped {
  const count = (t: Tabular | null) => {
    const m = new Map<string, number>();
    for (const r of t?.rows ?? []) m.set(String(r[shape.column] ?? '(none)'), (m.get(String(r[shape.column] ?? '(none)')) ?? 0) + 1);
    return m;
  };
  const now = count(current);
  const before = count(previous);
  const values = [...new Set([...now.keys(), ...before.keys()])].sort();
  const rows = values.map((v) => ({
    [shape.column]: v, window: now.get(v) ?? 0, previous: before.get(v) ?? 0, 'Δ': formatDelta(now.get(v) ?? 0, before.get(v) ?? 0),
  }));
  return { table: { columns: [shape.column, 'window', 'previous', 'Δ'], rows }, notes: previous ? [] : [notWindowed] };
}

function shapeList(shape: ListShape, current: Tabular, previous: Tabular | null): Shaped {
  const columns = present(current, shape.columns);
  const rows = current.rows.slice(0, shape.limit).map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])) as Row);
  const notes: string[] = [];
  const total = (t: Tabular, c: string) => round(t.rows.reduce((s, r) => s + num(r[c]), 0));
  const totals = (shape.totals ?? columns.filter((c) => isNumeric(current, c))).filter((c) => current.columns.includes(c));
  if (previous) {
    notes.push(`rows: ${current.rows.length} (previous window ${previous.rows.length}, ${formatDelta(current.rows.length, previous.rows.length)})`);
    for (const c of totals) notes.push(`total ${c}: ${total(current, c)} (previous window ${total(previous, c)}, ${formatDelta(total(current, c), total(previous, c))})`);
  } else {
    notes.push(`rows: ${current.rows.length}`, notWindowed);
  }
  if (current.rows.length > shape.limit) notes.push(`showing the first ${shape.limit} of ${current.rows.length} rows; run the query for all of them`);
  return { table: { columns, rows }, notes };
}

const notWindowed = 'this query has no time window: the figures cover all inputs read, and there is no previous window to compare';

export function shapeSection(shape: SectionShape, current: Tabular, previous: Tabular | null): Shaped {
  if (shape.kind === 'compare') return shapeCompare(shape, current, previous);
  if (shape.kind === 'count-by') return shapeCountBy(shape, current, previous);
  return shapeList(shape, current, previous);
}
