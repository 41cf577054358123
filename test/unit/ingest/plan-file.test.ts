// planFile: a stored file with the same size, mtime and settled stat stamp is unchanged without a
// read; any other stamp falls back to the head's hash (docs/inputs.md, Incremental loads).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { headHash } from '../../../src/ingest/fingerprint.js';
import { planFile, settledStamp, statStamp, type StoredFile } from '../../../src/ingest/plan-file.js';
import { tempDir } from '../../helpers/run-cli.js';

const { dir, cleanup } = tempDir('trajaudit-plan-file-');
afterAll(cleanup);

const mtime = new Date('2026-08-15T09:15:00.123Z');
const stored = (file: string, stamp: string | null): StoredFile => ({
  file_id: 1, bytes: 5, mtime: mtime.toISOString(), head_hash: fs.existsSync(file) ? headHash(file, 5) : 'gone', complete_bytes: 5, complete_lines: 1, tail_hash: 't', stat_stamp: stamp,
});

describe('planFile', () => {
  it('trusts the same settled stamp without opening the file', () => {
    // No file at this path: a read of its head would throw.
    const gone = path.join(dir, 'gone.jsonl');
    expect(planFile(gone, { size: 5, mtime, stamp: '1:2:3' }, stored(gone, '1:2:3'), true)).toEqual({ action: 'unchanged' });
    expect(() => planFile(gone, { size: 5, mtime, stamp: '1:2:4' }, stored(gone, '1:2:3'), true)).toThrow(/ENOENT/);
    expect(() => planFile(gone, { size: 5, mtime, stamp: null }, stored(gone, null), true)).toThrow(/ENOENT/);
  });

  it('reads the head when the stamp differs: unchanged by it, reloaded when it changed', () => {
    const file = path.join(dir, 'events.jsonl');
    fs.writeFileSync(file, 'abcd\n');
    const before = stored(file, '1:2:3');
    expect(planFile(file, { size: 5, mtime, stamp: '1:2:4' }, before, true)).toEqual({ action: 'unchanged' });
    fs.writeFileSync(file, 'abce\n');
    expect(planFile(file, { size: 5, mtime, stamp: '1:2:5' }, before, true)).toEqual({ action: 'reload' });
    // A stamp is never enough on its own: another size or mtime is a change.
    expect(planFile(file, { size: 5, mtime: new Date(mtime.getTime() + 1), stamp: '1:2:3' }, before, true)).toEqual({ action: 'reload' });
  });
});

describe('settledStamp', () => {
  it('is the stamp only for a change at least 2 s before now', () => {
    const stat = { dev: 7, ino: 42, ctimeMs: 1_000_000.25 };
    expect(statStamp(stat)).toBe('7:42:1000000.25');
    expect(settledStamp(stat, 1_000_000.25 + 2001)).toBe('7:42:1000000.25');
    expect(settledStamp(stat, 1_000_000.25 + 1999)).toBeNull();
  });
});
