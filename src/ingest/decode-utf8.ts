// A line that is not UTF-8 is listed alike by every reader (JSONL, warn.log, documents): the
// offset of its first bad byte, and an excerpt where only the bad bytes become U+FFFD.
const lossy = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text, each bad sequence replaced by U+FFFD (WHATWG), and the offset of the first bad byte (null: none). */
export function decodeLossy(bytes: Uint8Array): { text: string; badByte: number | null } {
  const text = lossy.decode(bytes);
  // Up to the first bad sequence, text and bytes correspond exactly; a U+FFFD the bytes spell
  // out (EF BF BD) is a character of the line, not a replacement.
  let byte = 0;
  let from = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) {
    byte += Buffer.byteLength(text.slice(from, i));
    from = i;
    if (bytes[byte] !== 0xef || bytes[byte + 1] !== 0xbf || bytes[byte + 2] !== 0xbd) return { text, badByte: byte };
  }
  return { text, badByte: null };
}

export function invalidUtf8Reason(badByte: number): string {
  return `invalid UTF-8 byte sequence at byte ${badByte} of the line`;
}
