// Fuzzing the line ledger: valid fixture lines, mutated at random (bytes deleted, replaced or
// inserted, tokens a lenient reader accepts, lines cut or run together, invalid UTF-8, blank and
// near-blank lines, a byte order mark), are loaded by both readers, whole and in two appends, and
// every file's counts and unreadable lines must be what an independent strict-JSON oracle says.
// CI runs FUZZ_ROUNDS (default 2) rounds from FUZZ_SEED (default fixed); `npm run fuzz` runs more
// from a seed of the clock, and a failure names its seed to run it again.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runJson, tempDir } from '../helpers/run-cli.js';

const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 2);
const SEED = Number(process.env.FUZZ_SEED ?? 20261202);
const FILES = 12;
const LINES = 40;

const { dir, cleanup } = tempDir('trajaudit-fuzz-');
afterAll(cleanup);

/** mulberry32: a small seeded generator, so that a seed gives the same files everywhere. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCE = fs.readFileSync(path.join(FIXTURES, 'home/trajectories/sessions/3b9f02d6/events.jsonl'), 'utf8').split('\n').filter((l) => l.startsWith('{'));
const TOKENS = [',', '}', '{', '[', ']', ':', '"', '\\', ' ', '\t', '\r', '\f', '\v', '\u0000', '\u001f', 'NaN', '-nan', 'Infinity', 'inf', 'true', '1e999', '-0', '\u2028', '\ufeff', '\\ud800', '\\udc00', '\\ud83d\\ude00', '\u00e9', '😀'];
const BLANKS = ['', ' ', '\t\r', '  \t ', '\f', '\u00a0', '\ufeff', '\r'];

function mutate(next: () => number): Buffer {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const line = Buffer.from(pick(SOURCE));
  const at = Math.floor(next() * (line.length + 1));
  switch (Math.floor(next() * 14)) {
    case 0: return Buffer.concat([line.subarray(0, at), line.subarray(at + 1)]); // a byte deleted
    case 1: return Buffer.concat([line.subarray(0, at), Buffer.from(pick(TOKENS)), line.subarray(at)]); // a token inserted
    case 2: { const copy = Buffer.from(line); copy[Math.min(at, copy.length - 1)] = Math.floor(next() * 256); return copy; } // any byte
    case 3: return line.subarray(0, at); // cut short
    case 4: return Buffer.concat([line, Buffer.from(next() < 0.5 ? '' : ' '), Buffer.from(pick(SOURCE))]); // two run together
    case 5: return Buffer.from(line.toString().replace(/}$/, ',}')); // trailing comma
    case 6: return Buffer.from(line.toString().replace(/,"data":(.*)}$/, ',"data":$1,"data":{"again":true}}')); // data twice
    case 7: return Buffer.from(pick(BLANKS));
    case 8: return Buffer.from(`${' \t'.slice(0, Math.floor(next() * 3))}${line}${next() < 0.5 ? '\r' : ' '}`);
    case 9: return Buffer.from(`[${line}]`);
    case 10: return Buffer.concat([line.subarray(0, at), Buffer.from([0xc3]), line.subarray(at)]); // half a UTF-8 character
    default: return line; // valid, as written
  }
}

interface Expected { lines: number; valid: number; blank: number; malformed: number[]; truncatedTail: boolean }

/** A lone surrogate escape (\ud800 not before \udc00–\udfff, or a low one alone): valid JSON DuckDB cannot store. */
function hasLoneSurrogate(text: string): boolean {
  const escapes = [...text.matchAll(/\\(u[0-9a-fA-F]{4}|.)/g)].map((m) => ({ at: m.index!, code: m[1].length === 5 ? parseInt(m[1].slice(1), 16) : -1, end: m.index! + m[0].length }));
  for (let k = 0; k < escapes.length; k += 1) {
    const { code, end } = escapes[k];
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = escapes[k + 1];
      if (low && low.at === end && low.code >= 0xdc00 && low.code <= 0xdfff) k += 1;
      else return true;
    } else if (code >= 0xdc00 && code <= 0xdfff) return true;
  }
  return false;
}

/** The oracle: RFC 8259 by JSON.parse, one object per line, '\n' ends a line, a leading BOM ignored. */
function oracle(file: Buffer): Expected {
  const bytes = file[0] === 0xef && file[1] === 0xbb && file[2] === 0xbf ? file.subarray(3) : file;
  const parts: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const nl = bytes.indexOf(10, start);
    parts.push(bytes.subarray(start, nl === -1 ? bytes.length : nl));
    start = nl === -1 ? bytes.length : nl + 1;
  }
  const terminated = bytes.length === 0 || bytes[bytes.length - 1] === 10;
  const expected: Expected = { lines: parts.length, valid: 0, blank: 0, malformed: [], truncatedTail: false };
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  parts.forEach((part, i) => {
    if (part.every((b) => b === 32 || b === 9 || b === 13)) return void (expected.blank += 1);
    let ok = false;
    try {
      const text = decoder.decode(part);
      const value = JSON.parse(text);
      ok = value !== null && typeof value === 'object' && !Array.isArray(value) && !hasLoneSurrogate(text);
    } catch {
      ok = false;
    }
    if (ok) expected.valid += 1;
    else expected.malformed.push(i + 1);
  });
  expected.truncatedTail = !terminated && expected.malformed.at(-1) === parts.length;
  return expected;
}

function makeFiles(seed: number, root: string): Map<string, Buffer> {
  const next = random(seed);
  const files = new Map<string, Buffer>();
  for (let f = 0; f < FILES; f += 1) {
    const lines = Array.from({ length: 1 + Math.floor(next() * LINES) }, () => (next() < 0.5 ? Buffer.from(SOURCE[Math.floor(next() * SOURCE.length)]) : mutate(next)));
    let file = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
    if (next() < 0.25) file = file.subarray(0, file.length - 1); // no newline at the end
    if (next() < 0.1) file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), file]);
    const rel = `trajectories/sessions/2026081${f % 10}-00000${f}-fuzz${String(f).padStart(4, '0')}/events.jsonl`;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    files.set(rel, file);
  }
  return files;
}

type Ledger = { files: { path: string; lines: number; valid: number; blank: number; malformed: number }[]; problems: { path: string; line: number; kind: string }[] };

/** The ledger's view of each file, in the oracle's terms. */
function seen(ledger: Ledger): Map<string, Expected> {
  return new Map(ledger.files.map((f) => {
    const problems = ledger.problems.filter((p) => p.path === f.path && p.kind !== 'duplicate-key');
    return [f.path, { lines: f.lines, valid: f.valid, blank: f.blank, malformed: problems.map((p) => p.line), truncatedTail: problems.some((p) => p.kind === 'truncated-tail') }];
  }));
}

describe('the line ledger against a strict-JSON oracle', () => {
  for (let round = 0; round < ROUNDS; round += 1) {
    const seed = SEED + round;
    it(`seed ${seed}: both readers, whole files and appended in two parts`, { timeout: 120_000 }, async () => {
      const root = path.join(dir, `round-${seed}`);
      const files = makeFiles(seed, root);
      for (const [rel, bytes] of files) fs.writeFileSync(path.join(root, rel), bytes);
      const expected = new Map([...files].map(([rel, bytes]) => [rel, oracle(bytes)]));
      const shown = (value: Map<string, Expected>) => Object.fromEntries(value);
      for (const reader of ['direct', 'staged']) {
        const whole = await runJson<Ledger>(['sources', root], { env: { TRAJAUDIT_READER: reader } });
        expect(shown(seen(whole.value)), `${reader} reader, seed ${seed}`).toEqual(shown(expected));
      }
      // Each file written in two parts, cut at any byte, loaded after each.
      const appended = path.join(dir, `append-${seed}`);
      const db = path.join(dir, `append-${seed}.duckdb`);
      const cut = random(seed ^ 0x5eed);
      const rest = new Map<string, Buffer>();
      for (const [rel, bytes] of files) {
        const at = Math.floor(cut() * (bytes.length + 1));
        fs.mkdirSync(path.dirname(path.join(appended, rel)), { recursive: true });
        fs.writeFileSync(path.join(appended, rel), bytes.subarray(0, at));
        rest.set(rel, bytes.subarray(at));
      }
      expect((await runJson(['load', appended, '--db', db])).run.code).toBe(0);
      for (const [rel, bytes] of rest) fs.appendFileSync(path.join(appended, rel), bytes);
      expect((await runJson(['load', appended, '--db', db])).run.code).toBe(0);
      const after = await runJson<Ledger>(['sources', '--db', db]);
      expect(shown(seen(after.value)), `appended, seed ${seed}`).toEqual(shown(expected));
    });
  }
});
