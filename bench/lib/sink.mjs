// Buffered file writer: lines accumulate as strings and hit the disk in ~1 MiB chunks, which is
// what lets the generator write 1 GiB in well under a minute.
import fs from 'node:fs';

const FLUSH_CHARS = 1 << 20;

export class Sink {
  constructor(path) {
    this.path = path;
    this.fd = fs.openSync(path, 'w');
    this.parts = [];
    this.chars = 0;
    this.bytes = 0;
  }

  /** Appends text; returns its UTF-8 byte length (CJK text is 3 bytes a character). */
  push(text) {
    this.parts.push(text);
    this.chars += text.length;
    const n = Buffer.byteLength(text);
    this.bytes += n;
    if (this.chars >= FLUSH_CHARS) this.flush();
    return n;
  }

  flush() {
    if (this.parts.length === 0) return;
    fs.writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.chars = 0;
  }

  close() {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/** A sink that opens its file only when the first line arrives (many sessions have no errors.jsonl). */
export class LazySink {
  constructor(path) {
    this.path = path;
    this.sink = null;
    this.lines = 0;
  }

  push(text) {
    this.sink ??= new Sink(this.path);
    this.lines++;
    return this.sink.push(text);
  }

  get bytes() {
    return this.sink ? this.sink.bytes : 0;
  }

  close() {
    this.sink?.close();
  }
}
