import renderCsv from './csv.js';
import renderJson from './json.js';
import renderMarkdown from './markdown.js';
import renderTable from './table.js';
import type { Renderer, RenderOptions, Tabular } from './types.js';

export const tabularRenderers = {
  table: renderTable,
  json: renderJson,
  csv: renderCsv,
  md: renderMarkdown,
} satisfies Record<string, Renderer>;

export type TabularFormat = keyof typeof tabularRenderers;
export const tabularFormats = Object.keys(tabularRenderers) as TabularFormat[];

/** Only the table format wraps to `options.width`; json, csv and md are for machines and files. */
export function renderTabular(table: Tabular, format: TabularFormat, options: RenderOptions = {}): string {
  return tabularRenderers[format](table, options);
}
