// One instance of the WebAssembly byte scanner (line-scanner.wat): a buffer the caller reads a
// file into, and the scan of its first `length` bytes, as entries in position order.
import { LINE_SCANNER_WASM } from './line-scanner-wasm.js';

const PAGE = 65536;
/** Entry area at the start of the module's memory; a scan call stops when it is full. */
const ENTRY_SLOTS = 16384;
const ENTRY_BYTES = ENTRY_SLOTS * 4;
/** Memory after the buffer: a step reads up to 16 bytes past the end. */
const PAD = 32;
const SUSPECT = 0x80000000;

let compiled: WebAssembly.Module | undefined;

interface Exports {
  memory: WebAssembly.Memory;
  stop: WebAssembly.Global;
  dataSeen: WebAssembly.Global;
  scan(base: number, start: number, end: number, out: number, outEnd: number): number;
}

export class LineScanner {
  private readonly exports: Exports;
  /** Where the caller puts the bytes; a new view after `grow` (the bytes are kept). */
  bytes!: Buffer;

  constructor(capacity: number) {
    compiled ??= new WebAssembly.Module(Buffer.from(LINE_SCANNER_WASM, 'base64'));
    this.exports = new WebAssembly.Instance(compiled).exports as unknown as Exports;
    this.grow(capacity);
  }

  get capacity(): number {
    return this.bytes.length;
  }

  grow(capacity: number): void {
    const { memory } = this.exports;
    const need = ENTRY_BYTES + capacity + PAD;
    if (memory.buffer.byteLength < need) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
    this.bytes = Buffer.from(memory.buffer, ENTRY_BYTES, capacity);
  }

  /**
   * Scans bytes[0, length), which start a line: calls `newline(offset)` for each newline and
   * `suspect(offset)` for each place a lenient JSON reader could accept what RFC 8259 does not,
   * and for each line's second "data", in position order.
   */
  scan(length: number, newline: (offset: number) => void, suspect: (offset: number) => void): void {
    const { memory, scan, stop, dataSeen } = this.exports;
    dataSeen.value = 0;
    const entries = new Uint32Array(memory.buffer, 0, ENTRY_SLOTS);
    for (let from = 0; from < length; from = stop.value as number) {
      const count = scan(ENTRY_BYTES, from, length, 0, ENTRY_BYTES);
      for (let k = 0; k < count; k += 1) {
        const entry = entries[k];
        if (entry >= SUSPECT) suspect(entry - SUSPECT);
        else newline(entry);
      }
    }
  }
}
