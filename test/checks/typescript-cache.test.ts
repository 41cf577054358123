// The V8 code cache for typescript.js (src/checks/typescript.cts) changes speed, never results:
// no cache, a fresh one and a corrupt one give the same findings.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const check = () => runCli(['check', path.join(FIXTURES, 'check-call-forms'), '--format', 'json'], { env: { TMPDIR: tmp.dir } });
const cacheFiles = () => fs.readdirSync(tmp.dir).filter((f) => f.startsWith('trajaudit-v8-typescript-'));

describe('typescript.js code cache', () => {
  it('is written on the first run and gives identical findings with it, without it, and corrupt', () => {
    const first = check();
    expect(first.code).toBe(1);
    expect(cacheFiles()).toHaveLength(1);
    const cached = check();
    expect(cached).toEqual(first);
    fs.writeFileSync(path.join(tmp.dir, cacheFiles()[0]), 'not a V8 code cache');
    const corrupt = check();
    expect(corrupt).toEqual(first);
    expect(fs.statSync(path.join(tmp.dir, cacheFiles()[0])).size).toBeGreaterThan(1_000_000);
  });
});
