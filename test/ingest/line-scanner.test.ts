import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineScanner } from '../../src/ingest/line-scanner.js';

// What the scanner must find, written the obvious way: the lenient constructs of yyjson that
// RFC 8259 forbids (trailing commas; NaN/Infinity after a value opener, any case, signed).
const LENIENT = /,[ \t\r]*[\]}]|[:,[][ \t\r]*[-+]?[Nn][Aa][Nn]|[:,[][ \t\r]*[-+]?[Ii][Nn][Ff]/;

/** Per line: does the scanner report a suspect in it? And where are the newlines? */
function scanText(text: string, scanner = new LineScanner(Buffer.byteLength(text, 'latin1'))) {
  const bytes = Buffer.from(text, 'latin1');
  if (scanner.capacity < bytes.length) scanner.grow(bytes.length);
  bytes.copy(scanner.bytes);
  const newlines: number[] = [];
  const suspects: number[] = [];
  scanner.scan(bytes.length, (at) => newlines.push(at), (at) => suspects.push(at));
  const flagged = new Set<number>();
  let line = 0;
  let next = 0;
  for (const at of suspects) {
    while (next < newlines.length && newlines[next] < at) {
      line += 1;
      next += 1;
    }
    flagged.add(line);
  }
  return { newlines, flagged };
}

function expected(text: string) {
  const newlines: number[] = [];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) newlines.push(at);
  const flagged = new Set<number>();
  text.split('\n').forEach((line, k) => {
    if (LENIENT.test(line)) flagged.add(k);
  });
  return { newlines, flagged };
}

/** Deterministic text dense in the characters that matter (mulberry32). */
function randomText(seed: number, length: number): string {
  const alphabet = ',,, \t\r}]::[[nNaAiIfF-+\n"x1{';
  let state = seed >>> 0;
  let out = '';
  for (let k = 0; k < length; k += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out += alphabet[((t ^ (t >>> 14)) >>> 0) % alphabet.length];
  }
  return out;
}

describe('LineScanner (WebAssembly)', () => {
  it('finds what the regex finds, line by line, on random text dense in the characters that matter', () => {
    const scanner = new LineScanner(4096);
    let lines = 0;
    let flaggedLines = 0;
    for (let seed = 1; seed <= 300; seed += 1) {
      const text = randomText(seed, 1 + (seed * 37) % 3000);
      const got = scanText(text, scanner);
      const want = expected(text);
      expect(got.newlines).toEqual(want.newlines);
      expect([...got.flagged].sort((a, b) => a - b)).toEqual([...want.flagged].sort((a, b) => a - b));
      lines += want.newlines.length + 1;
      flaggedLines += want.flagged.size;
    }
    // The comparison is not vacuous: both kinds of line occur often.
    expect(flaggedLines).toBeGreaterThan(1000);
    expect(lines - flaggedLines).toBeGreaterThan(1000);
  });

  it('checks each construct, and only before the end of the bytes', () => {
    const cases: [string, boolean][] = [
      ['{"a":1,}', true],
      ['{"a":[1, \t\r]}', true],
      ['{"a":1,\n}', false], // the comma's line ends first
      ['{"a":NaN}', true],
      ['{"a": -inf}', true],
      ['{"a":[+Infinity]}', true],
      ['{"a":nAn}', true],
      ['{"a":"NaN"}', false],
      ['{"a":"x, }"}', true], // looks lenient; the strict parser clears it later
      ['{"a":na', false], // "na" at the end: no third letter
      ['{"a":in', false],
      ['{"info":1}', false],
      [':nan', true],
      ['nan', false],
    ];
    for (const [text, suspect] of cases) expect([text, scanText(text).flagged.size > 0]).toEqual([text, suspect]);
  });

  it('flags a line naming one of its keys quoted a second time, counting afresh on each line', () => {
    const scanner = new LineScanner(4096);
    scanner.setKeys(['data', 'event', 'ts', 'session_id']);
    const cases: [string, boolean][] = [
      ['{"event":"a","data":{}}', false],
      ['{"data":{},"data":{}}', true],
      ['{"event":"a","event":"b"}', true],
      ['{"ts":1,"x":{"ts":2}}', true], // nested: the strict judge clears it later
      ['{"t":1,"tss":2,"ts":3}', false],
      ['{"session_id":"s","session_idx":"t"}', false],
      ['{"session_id":"s","x":"session_id","session_id":"u"}', true],
      ['{"datum":1,"dat":2,"data":3}', false],
      ['{"data"', false],
      ['{"data":1,"dat', false], // cut before the key's closing quote
    ];
    for (const [text, suspect] of cases) expect([text, scanText(text, scanner).flagged.size > 0]).toEqual([text, suspect]);
    // Once per line, the count starting again after each newline.
    expect([...scanText('{"data":1}\n{"data":2}\n{"data":1,"data":2,"data":3}\n{"data":4}', scanner).flagged]).toEqual([2]);
    // No keys: nothing flagged for them.
    scanner.setKeys([]);
    expect(scanText('{"data":{},"data":{}}', scanner).flagged.size).toBe(0);
  });

  it('resumes when more entries are found than one call can hold', () => {
    const text = `${'\n'.repeat(40_000)}{"a":1,}\n${'x,}\n'.repeat(20_000)}`;
    const got = scanText(text);
    const want = expected(text);
    expect(got.newlines).toEqual(want.newlines);
    expect(got.flagged.size).toBe(20_001);
    expect(got.flagged).toEqual(want.flagged);
  });

  it('keeps its bytes when it grows', () => {
    const scanner = new LineScanner(16);
    scanner.bytes.write('{"a":1,}\n', 'latin1');
    scanner.grow(1 << 20);
    expect(scanner.capacity).toBe(1 << 20);
    expect(scanner.bytes.toString('latin1', 0, 9)).toBe('{"a":1,}\n');
  });

  it('is built from line-scanner.wat as committed', () => {
    const run = spawnSync(process.execPath, [path.join('scripts', 'build-line-scanner.mjs'), '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
