// Pure: ReportData → the report's machine form, one JSON document: the windows, the headline and
// each section's table as shown (rows keyed by column), without the charts (their SVG is drawing).
import { jsonText } from '../render/json-text.js';
import type { Tabular } from '../render/types.js';
import { isoTime } from './header.js';
import type { ReportData, Window } from './types.js';

const window = (w: Window) => ({ since: isoTime(w.since), until: isoTime(w.until) });
const table = (t: Tabular) => ({ columns: t.columns, rows: t.rows.map((r) => Object.fromEntries(t.columns.map((c) => [c, r[c] ?? null]))) });

export function renderReportJson(data: ReportData): string {
  const doc = {
    window: window(data.windows.current),
    previous: window(data.windows.previous),
    inputs: data.inputs,
    empty: data.empty ?? null,
    headline: data.headline.map(({ kind, count, text, section }) => ({ kind, count, text, section })),
    sections: data.sections.map((s) => ({
      id: s.id, title: s.title, query: s.query, about: s.about,
      ...table(s.table),
      notes: s.notes,
      extra: (s.extra ?? []).map((e) => ({ title: e.title, ...table(e.table) })),
    })),
  };
  return `${jsonText(doc, 2)}\n`;
}
