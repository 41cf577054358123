// One instance of the WebAssembly byte scanner (line-scanner.wat): a buffer the caller reads a
// file into, and the scan of its first `length` bytes, as entries in position order.
import { LINE_SCANNER_WASM } from './line-scanner-wasm.js';

const PAGE = 65536;
/** Entry area at the start of the module's memory; a scan call stops when it is full. */
const ENTRY_SLOTS = 16384;
const ENTRY_BYTES = ENTRY_SLOTS * 4;
/** The keys' table and the line's counts of them, at the end of the entry area (line-scanner.wat). */
const KEY_TABLE = 65024;
const KEY_SLOTS = 8;
const KEY_SLOT_BYTES = 32;
const KEY_MAX_BYTES = 20;
const KEY_COUNTS = 65280;
/** Memory after the buffer: a step reads up to 16 bytes past the end. */
const PAD = 32;
const SUSPECT = 0x80000000;

let compiled: WebAssembly.Module | undefined;

interface Exports {
  memory: WebAssembly.Memory;
  stop: WebAssembly.Global;
  keys: WebAssembly.Global;
  setKey(slot: number, bytes: number): void;
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

  /** The keys (up to 8, of up to 18 bytes) whose second time on a line is a suspect; none by default. */
  setKeys(keys: string[]): void {
    const { memory, setKey } = this.exports;
    new Uint8Array(memory.buffer, KEY_TABLE, KEY_SLOTS * KEY_SLOT_BYTES).fill(0);
    this.exports.keys.value = 0;
    keys.slice(0, KEY_SLOTS).forEach((key, slot) => {
      const quoted = Buffer.from(JSON.stringify(key));
      if (quoted.length > KEY_MAX_BYTES) throw new RangeError(`key ${key} is longer than the scanner takes`);
      quoted.copy(new Uint8Array(memory.buffer, KEY_TABLE + slot * KEY_SLOT_BYTES + 12, KEY_MAX_BYTES));
      setKey(slot, quoted.length);
    });
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
   * and where a line names one of the keys (setKeys) a second time, in position order.
   */
  scan(length: number, newline: (offset: number) => void, suspect: (offset: number) => void): void {
    const { memory, scan, stop } = this.exports;
    new Uint8Array(memory.buffer, KEY_COUNTS, KEY_SLOTS).fill(0);
    const entries = new Uint32Array(memory.buffer, 0, ENTRY_SLOTS);
    for (let from = 0; from < length; from = stop.value as number) {
      const count = scan(ENTRY_BYTES, from, length, 0, KEY_TABLE);
      for (let k = 0; k < count; k += 1) {
        const entry = entries[k];
        if (entry >= SUSPECT) suspect(entry - SUSPECT);
        else newline(entry);
      }
    }
  }
}
