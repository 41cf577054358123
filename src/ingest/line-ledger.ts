/**
 * One line that could not be read, or (`duplicate-key`) read but not whole: a later value of a key
 * it names twice is stored nowhere. Listed in input_problems; never dropped.
 */
export interface Problem {
  line: number;
  byteOffset: number;
  kind: 'malformed' | 'truncated-tail' | 'duplicate-key';
  reason: string;
  excerpt: string;
}

/**
 * Line accounting for one file (or the part of it read this time). valid + blank + malformed =
 * lines; a duplicate-key line is valid, and listed among the problems as well.
 */
export interface LineLedger {
  lines: number;
  valid: number;
  blank: number;
  malformed: number;
  /** Bytes read, from the start offset to the end of the last line read (terminated or not). */
  bytes: number;
  /** Offset just after the last newline: where an append resumes. */
  completeBytes: number;
  completeLines: number;
  problems: Problem[];
  /** Event-time range of the rows, when the adapter knows it without a query (ISO strings). */
  timeRange?: { min: string | null; max: string | null };
}

export function emptyLedger(): LineLedger {
  return { lines: 0, valid: 0, blank: 0, malformed: 0, bytes: 0, completeBytes: 0, completeLines: 0, problems: [] };
}
