import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Refused } from '../../../src/ingest/refused.js';
import { type LineScan, lineBytes, scanLines } from '../../../src/ingest/scan-lines.js';
import { FIXTURES, tempDir } from '../../helpers/run-cli.js';

const EDGES = path.join(FIXTURES, 'direct-reader-edges/trajectories/sessions/20260815-090000-0000d1e1/events.jsonl');

describe('scanLines', () => {
  it('finds the blank lines, judges the doubtful ones, and notes an unterminated tail', async () => {
    const scan = (await scanLines(EDGES)) as LineScan;
    expect(scan.lines).toBe(17);
    expect(scan.bytes).toBe(931);
    expect(scan.blank).toEqual([2, 3, 16]);
    // Only lines read_json could wrongly accept are judged here; read_json's all-NULL rows are judged later.
    expect([...scan.malformed.keys()]).toEqual([8, 9, 10]);
    expect(scan.malformed.get(8)!.offset).toBe(387);
    expect(scan.terminated).toBe(false);
    expect(scan.lastLineStart).toBe(864);
  });

  it('gives the same result whatever the chunk size: lines crossing chunks, buffers grown for long lines', async () => {
    const whole = await scanLines(EDGES);
    for (const size of [7, 64, 130, 257, 1000]) expect(await scanLines(EDGES, { chunkBytes: size })).toEqual(whole);
  });

  it('lineBytes returns each line and its offset, across checkpoints', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const lines = Array.from({ length: 1000 }, (_, i) => (i % 97 === 0 ? '' : JSON.stringify({ event: 'E', n: i, pad: 'x'.repeat(i % 13) })));
      const file = path.join(dir, 'events.jsonl');
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const scan = (await scanLines(file)) as LineScan;
      expect(scan.lines).toBe(1000);
      expect(scan.checkpoints).toHaveLength(4);
      let offset = 0;
      for (const [i, text] of lines.entries()) {
        expect(lineBytes(file, scan, i + 1)).toEqual({ offset, bytes: Buffer.from(text) });
        offset += Buffer.byteLength(text) + 1;
      }
    } finally {
      cleanup();
    }
  });

  it('refuses a line longer than its buffer, and invalid UTF-8', async () => {
    expect(await scanLines(EDGES, { chunkBytes: 16, maxLineBytes: 100 })).toBeInstanceOf(Refused);
    expect(((await scanLines(EDGES, { chunkBytes: 16, maxLineBytes: 128 })) as LineScan).lines).toBe(17);
    const latin1 = path.join(FIXTURES, 'direct-reader-edges/trajectories/sessions/20260815-110000-0000d1e3/events.jsonl');
    expect(await scanLines(latin1)).toMatchObject({ message: expect.stringMatching(/invalid UTF-8/) });
  });
});
