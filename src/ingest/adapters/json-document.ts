// Single-document files (session-summary.json, heartbeat.txt). Line accounting still holds:
// a document that does not parse leaves all its non-blank lines unread, and each is listed.
import type { SourceKind } from '../../discover/discover-inputs.js';
import type { Problem } from '../line-ledger.js';
import { MAX_LINE_BYTES } from '../line-rules.js';
import { readLines, type TextLine } from '../read-lines.js';
import { excerpt, strictJsonObject } from '../strict-json.js';
import type { Adapter } from './adapter.js';

function lineOfPosition(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i += 1) if (text[i] === '\n') line += 1;
  return line;
}

export function jsonDocumentAdapter(
  kind: SourceKind,
  table: string,
  columns: string[],
  toRow: (doc: Record<string, unknown>, text: string) => unknown[],
): Adapter {
  return {
    kind,
    tables: [table],
    appendable: false,
    timed: kind === 'heartbeat',
    async read(target) {
      const { lines, bytes } = readLines(target.file.absPath);
      const isBlank = (l: TextLine) => !l.unread && l.text.trim() === '';
      const blank = lines.filter(isBlank).length;
      const nonBlank = lines.length - blank;
      const tooLong = lines.find((l) => l.unread);
      // DuckDB parses a document as one value: one longer than a line may be is not read either.
      const unread = tooLong?.unread?.reason ?? (bytes > MAX_LINE_BYTES ? `document longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB (${bytes} bytes): not read` : null);
      const text = unread ? '' : lines.map((l) => l.text).join('\n');
      const verdict = unread ? { ok: false as const, reason: unread } : nonBlank === 0 ? { ok: false as const, reason: 'empty document' } : strictJsonObject(text);
      const base = { lines: lines.length, blank, bytes, completeBytes: bytes, completeLines: lines.length };
      if (!verdict.ok) {
        const at = /position (\d+)/.exec(verdict.reason);
        const failedAt = tooLong?.number ?? (at ? lineOfPosition(text, Number(at[1])) : lines.find((l) => !isBlank(l))?.number ?? 1);
        const what = unread ? 'is not read' : 'does not parse';
        // Every unread line is listed (the ledger's promise); the one the parser stopped at says why.
        const problems: Problem[] = lines.filter((l) => !isBlank(l)).map((l) => ({
          line: l.number,
          byteOffset: l.byteOffset,
          kind: !l.terminated && l.number === lines.length ? 'truncated-tail' : 'malformed',
          reason: l.number === failedAt
            ? `${verdict.reason}; the whole document (${nonBlank} ${nonBlank === 1 ? 'line' : 'lines'}) is unread`
            : `part of a JSON document that ${what} (line ${failedAt}: ${verdict.reason})`,
          excerpt: l.unread?.excerpt ?? excerpt(l.text),
        }));
        const ledger = { ...base, valid: 0, malformed: nonBlank, problems };
        return { ledger, store: async () => {} };
      }
      const doc = JSON.parse(text) as Record<string, unknown>;
      const store = async () => target.batch.add(table, columns, [[target.fileId, target.file.sessionId, ...toRow(doc, text)]]);
      return { ledger: { ...base, valid: nonBlank, malformed: 0, problems: [] }, store };
    },
  };
}
