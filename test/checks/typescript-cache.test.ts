// The V8 code cache for typescript.js (src/checks/typescript.cts) changes speed, never results:
// no cache, a fresh one, a corrupt one and a damaged one give the same findings. It is kept per
// user and per install, in a directory only its owner can write, and a file someone else planted
// is not read.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO, runBinary, tempDir } from '../helpers/run-cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
// Spawned: the cache is read as the process starts and written as it exits.
const check = () => runBinary(['check', path.join(FIXTURES, 'check-call-forms'), '--format', 'json'], { env: { TMPDIR: tmp.dir } });

const require = createRequire(path.join(REPO, 'package.json'));
const typescriptFile = fs.realpathSync(require.resolve('typescript'));
const version = (require('typescript/package.json') as { version: string }).version;
const uid = process.getuid!();
const cacheDir = path.join(tmp.dir, `trajaudit-v8-cache-${uid}`);
const installHash = createHash('sha256').update(typescriptFile).digest('hex').slice(0, 12);
const cacheFile = path.join(cacheDir, `typescript-${version}-${installHash}-${process.version}-${process.arch}.cache`);
const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('typescript.js code cache', () => {
  it('is written on the first run and gives identical findings with it, without it, and corrupt', async () => {
    const first = await check();
    expect(first.code).toBe(1);
    expect(fs.readdirSync(cacheDir)).toEqual([path.basename(cacheFile)]);
    const cached = await check();
    expect(cached).toEqual(first);
    fs.writeFileSync(cacheFile, 'not a V8 code cache');
    const corrupt = await check();
    expect(corrupt).toEqual(first);
    expect(fs.statSync(cacheFile).size).toBeGreaterThan(1_000_000);
  });

  it('damaged on disk (same length, 4 KB flipped in the middle) is not handed to V8, which would crash: it is rewritten', async () => {
    const first = await check();
    const damaged = fs.readFileSync(cacheFile);
    const middle = damaged.length >> 1;
    for (let i = middle; i < middle + 4096; i++) damaged[i] ^= 0xff;
    fs.writeFileSync(cacheFile, damaged);
    expect(await check()).toEqual(first);
    const rewritten = fs.readFileSync(cacheFile);
    expect(rewritten.length).toBeGreaterThan(1_000_000);
    expect(rewritten.equals(damaged)).toBe(false);
    // A sound cache is used as it is, not rewritten on every run.
    const { mtimeMs } = fs.statSync(cacheFile);
    expect(await check()).toEqual(first);
    expect([fs.statSync(cacheFile).mtimeMs, fs.readFileSync(cacheFile).equals(rewritten)]).toEqual([mtimeMs, true]);
  });

  it('lives in a directory of its own user (0700), named for this typescript install, readable by its owner only (0600)', () => {
    expect(fs.readdirSync(tmp.dir)).toEqual([path.basename(cacheDir)]);
    expect([mode(cacheDir), mode(cacheFile), fs.statSync(cacheFile).uid]).toEqual([0o700, 0o600, uid]);
  });

  it('is not used from a directory others can write, nor from a file another user owns', async () => {
    const first = await check();
    fs.chmodSync(cacheDir, 0o777);
    fs.rmSync(cacheFile);
    expect(await check()).toEqual(first);
    expect(fs.readdirSync(cacheDir)).toEqual([]);
    fs.chmodSync(cacheDir, 0o700);

    expect(await check()).toEqual(first);
    expect(fs.existsSync(cacheFile)).toBe(true);
    if (uid === 0) {
      // Root can hand the file to another user: it must then be ignored, and replaced by our own.
      fs.chownSync(cacheFile, 65534, 65534);
      expect(await check()).toEqual(first);
      expect(fs.statSync(cacheFile).uid).toBe(uid);
    }
  });
});
