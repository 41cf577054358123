// Single-document files (session-summary.json, heartbeat.txt). Line accounting still holds:
// a document that does not parse leaves all its non-blank lines unread, and each is listed.
import type { SourceKind } from '../../discover/discover-inputs.js';
import type { Problem } from '../line-ledger.js';
import { readLines } from '../read-lines.js';
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
      const text = lines.map((l) => l.text).join('\n');
      const blank = lines.filter((l) => l.text.trim() === '').length;
      const nonBlank = lines.length - blank;
      const verdict = nonBlank === 0 ? { ok: false as const, reason: 'empty document' } : strictJsonObject(text);
      const base = { lines: lines.length, blank, bytes, completeBytes: bytes, completeLines: lines.length };
      if (!verdict.ok) {
        const at = /position (\d+)/.exec(verdict.reason);
        const failedAt = at ? lineOfPosition(text, Number(at[1])) : 1;
        // Every unread line is listed (the ledger's promise); the one the parser stopped at says why.
        const problems: Problem[] = lines.filter((l) => l.text.trim() !== '').map((l) => ({
          line: l.number,
          byteOffset: l.byteOffset,
          kind: !l.terminated && l.number === lines.length ? 'truncated-tail' : 'malformed',
          reason: l.number === failedAt
            ? `${verdict.reason}; the whole document (${nonBlank} ${nonBlank === 1 ? 'line' : 'lines'}) is unread`
            : `part of a JSON document that does not parse (line ${failedAt}: ${verdict.reason})`,
          excerpt: excerpt(l.text),
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
