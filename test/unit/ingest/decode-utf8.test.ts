import { describe, expect, it } from 'vitest';
import { decodeLossy } from '../../../src/ingest/decode-utf8.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('decodeLossy', () => {
  it('gives the offset of the first bad byte, past multi-byte characters and real U+FFFD', () => {
    expect(decodeLossy(bytes('é修', [0xff], 'x'))).toEqual({ text: 'é修\uFFFDx', badByte: 5 });
    expect(decodeLossy(bytes('\uFFFD\uFFFD', [0xe4, 0xbf]))).toEqual({ text: '\uFFFD\uFFFD\uFFFD', badByte: 6 });
  });

  it('replaces only the bad bytes (an encoded surrogate, a cut last character) and keeps a byte-order mark', () => {
    expect(decodeLossy(bytes('\uFEFFa', [0xed, 0xa0, 0x80], 'b'))).toEqual({ text: '\uFEFFa\uFFFD\uFFFD\uFFFDb', badByte: 4 });
    expect(decodeLossy(bytes('ok ', [0xf0, 0x9f, 0x98]))).toEqual({ text: 'ok \uFFFD', badByte: 3 });
    expect(decodeLossy(bytes('fine \uFFFD'))).toEqual({ text: 'fine \uFFFD', badByte: null });
  });
});
