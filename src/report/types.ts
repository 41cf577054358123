import type { Tabular } from '../render/types.js';

/** A half-open time range [since, until) in UTC. */
export interface Window {
  since: Date;
  until: Date;
}

export interface ReportWindows {
  current: Window;
  /** The window of the same length that ends where `current` starts. */
  previous: Window;
}

/** One section of the report: a short table, optional notes, optional charts. */
export interface ReportSection {
  id: string;
  title: string;
  /** The canned query behind the section (`trajaudit query NAME` reproduces it), or null for coverage. */
  query: string | null;
  /** One line on what the reader is looking at. */
  about: string;
  table: Tabular;
  /** Further lines under the table (totals, "showing 10 of 14", window caveats). */
  notes: string[];
  /** Extra tables (e.g. the malformed lines under coverage), titled. */
  extra?: { title: string; table: Tabular }[];
  charts: ChartOutput[];
}

export interface ChartOutput {
  /** File-name-safe id: report-<id>.svg beside a Markdown report. */
  id: string;
  title: string;
  /** The chart drawn; '' in a report whose format shows none (JSON, Markdown on a stream). */
  svg: string;
}

/** One line of the headline: a finding that matters this window, and the section that shows it. */
export interface Finding {
  /** Stable: silent-failures, retry-budget-exhausted, snapshot-verdicts, new-error-phases. */
  kind: string;
  count: number;
  text: string;
  /** The id of the section that shows it (the HTML anchor). */
  section: string;
}

export interface ReportData {
  windows: ReportWindows;
  /** The inputs as the user named them (or the database file). */
  inputs: string[];
  /** What matters this window, most serious first; empty when nothing does. */
  headline: Finding[];
  sections: ReportSection[];
  /** Set when the window holds no event: said at the top of the report, where the inputs' events are. */
  empty?: string;
}
