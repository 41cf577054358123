import fs from 'node:fs';

/** A config or baseline file, at most: far above any real one (a baseline of 60,000 findings is some 20 MiB). */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** Thrown when a file holds more than the cap (a device such as /dev/zero never ends). */
export class TooLargeError extends Error {}

/**
 * A small file's UTF-8 text, without a leading byte order mark, read as a stream so that a pipe (`--config /dev/stdin`) works, but
 * stopped at `capBytes`: read whole, /dev/zero filled half a gigabyte before V8 refused the string.
 */
export async function readCappedText(file: string, capBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    bytes += (chunk as Buffer).length;
    if (bytes > capBytes) throw new TooLargeError(`more than ${capBytes / 1024 / 1024} MiB`);
    chunks.push(chunk as Buffer);
  }
  // A byte order mark at the start (Notepad and Visual Studio save one) is skipped, as RFC 8259 §8.1
  // lets a parser do and as trajaudit does for every input file; tsc accepts one in tsconfig.json too.
  return Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
}
