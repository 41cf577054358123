// Single-document files (session-summary.json, heartbeat.txt). Line accounting still holds:
// a document that cannot be read leaves all its non-blank lines unread, and each is listed.
import type { SourceKind } from '../../discover/discover-inputs.js';
import { invalidUtf8Reason } from '../decode-utf8.js';
import type { Problem } from '../line-ledger.js';
import { cannotStoreReason, loneSurrogateEscape } from '../lone-surrogate.js';
import { MAX_LINE_BYTES } from '../line-rules.js';
import { readLines, type TextLine } from '../read-lines.js';
import { excerpt, strictJsonObject } from '../strict-json.js';
import type { Adapter } from './adapter.js';

const POSITION = /at position (\d+)/;

/** JSON.parse fails on `text` before its end (not merely for want of more text). */
function failsInside(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch (error) {
    const at = POSITION.exec((error as Error).message);
    return at ? Number(at[1]) < text.length : !/Unexpected end of JSON input/.test((error as Error).message);
  }
}

/** Where the parser stopped in a document that does not parse; text.length when it ran out of text. */
function stopPosition(text: string, reason: string): number {
  const at = POSITION.exec(reason);
  if (at) return Number(at[1]);
  if (/Unexpected end of JSON input/.test(reason)) return text.length;
  if (reason.startsWith('valid JSON but')) return text.search(/[^ \t\r\n]/);
  // V8 names no position for an unexpected token (`x`, a byte-order mark): the shortest prefix
  // that already fails ends just after it.
  let low = 1;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (failsInside(text.slice(0, mid))) high = mid;
    else low = mid + 1;
  }
  return low - 1;
}

/** The non-blank line holding `position` of the lines joined by '\n' (the one before, for a blank line or the end). */
function lineAt(lines: TextLine[], position: number): TextLine {
  let found = lines.find((l) => !l.blank)!;
  let start = 0;
  for (const line of lines) {
    if (start > position) break;
    if (!line.blank) found = line;
    start += line.text.length + 1;
  }
  return found;
}

/** Why the document cannot be stored, the line that breaks it, and whether it is cut short; null when it can be. */
function judgeDocument(lines: TextLine[], text: string, bytes: number): { reason: string; line: TextLine; cutShort: boolean } | null {
  const tooLong = lines.find((l) => l.unread);
  if (tooLong) return { reason: tooLong.unread!.reason, line: tooLong, cutShort: false };
  // DuckDB parses a document as one value: one longer than a line may be is not read either.
  if (bytes > MAX_LINE_BYTES) return { reason: `document longer than ${MAX_LINE_BYTES / 1024 / 1024} MiB (${bytes} bytes): not read`, line: lines.find((l) => !l.blank)!, cutShort: false };
  const undecodable = lines.find((l) => l.badByte !== null);
  if (undecodable) return { reason: invalidUtf8Reason(undecodable.badByte!), line: undecodable, cutShort: false };
  const verdict = strictJsonObject(text);
  if (!verdict.ok) {
    const position = stopPosition(text, verdict.reason);
    // V8 quotes the text around an unexpected token, newlines and all; the position says more.
    const token = /^Unexpected token .*, .* is not valid JSON$/s.test(verdict.reason) && String.fromCodePoint(text.codePointAt(position) ?? 0xfffd);
    const shown = token && (token < ' ' ? `U+${token.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `'${token}'`);
    const reason = shown ? `Unexpected token ${shown} in JSON at position ${position}` : verdict.reason;
    return { reason, line: lineAt(lines, position), cutShort: position >= text.length };
  }
  const lone = loneSurrogateEscape(text);
  if (lone) return { reason: cannotStoreReason(lone), line: lineAt(lines, lone.position), cutShort: false };
  return null;
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
      const blank = lines.filter((l) => l.blank).length;
      const nonBlank = lines.length - blank;
      const base = { lines: lines.length, blank, bytes, completeBytes: bytes, completeLines: lines.length };
      if (nonBlank === 0) return { ledger: { ...base, valid: 0, malformed: 0, problems: [] }, store: async () => {} };
      const failure = judgeDocument(lines, text, bytes);
      if (failure) {
        // Every unread line is listed (the ledger's promise); the one that breaks the document says why.
        const problems: Problem[] = lines.filter((l) => !l.blank).map((l) => ({
          line: l.number,
          byteOffset: l.byteOffset,
          // heartbeat.txt never ends with a newline: only a document the parser ran out of is torn.
          kind: failure.cutShort && !l.terminated && l.number === lines.length ? 'truncated-tail' : 'malformed',
          reason: l === failure.line
            ? `${failure.reason}; the whole document (${nonBlank} ${nonBlank === 1 ? 'line' : 'lines'}) is unread`
            : `part of a JSON document that is unread (line ${failure.line.number}: ${failure.reason})`,
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
