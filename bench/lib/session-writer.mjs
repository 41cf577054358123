// The line plumbing under SessionSim: timestamps, the events/warn/errors sinks, and the corpus-wide
// schedule that turns an occasional line into a malformed or blank one.
import { LazySink, Sink } from './sink.mjs';

export class SessionWriter {
  constructor({ rng, corpus, dir, sid, startMs }) {
    Object.assign(this, { rng, corpus, dir, sid });
    this.t = startMs;
    this.t0 = startMs;
    this.events = new Sink(`${dir}/events.jsonl`);
    this.warn = new LazySink(`${dir}/warn.log`);
    this.errors = new LazySink(`${dir}/errors.jsonl`);
    this.cwd = '';
  }

  ts() {
    return new Date(this.t).toISOString();
  }

  tick(lo, hi) {
    this.t += this.rng.int(lo, hi);
  }

  ev(name, data, withCwd = false) {
    this.tick(1, 40);
    this.line(`{"event":"${name}","session_id":"${this.sid}","timestamp":"${this.ts()}"${withCwd ? this.cwd : ''},"data":${data}}`);
  }

  line(text) {
    const c = this.corpus;
    if (c.bytes >= c.nextBlankAt) {
      c.nextBlankAt += this.rng.exp(c.blankGap);
      c.blank++;
      c.lines++;
      c.bytes += this.events.push('\n');
    }
    if (c.bytes >= c.nextBadAt) {
      c.nextBadAt += this.rng.exp(c.badGap);
      text = this.corrupt(text);
    } else {
      c.valid++;
    }
    c.lines++;
    c.bytes += this.events.push(`${text}\n`);
  }

  /** The ways real events.jsonl lines go bad (docs/formats.md#conventions: crashes, interleaved writers, masking). */
  corrupt(text) {
    const kind = this.rng.pick(['trailing-comma', 'run-together', 'fragment', 'cut', 'nul-bytes']);
    this.corpus.malformed[kind] = (this.corpus.malformed[kind] ?? 0) + 1;
    switch (kind) {
      case 'trailing-comma':
        return `${text.slice(0, -1)},}`;
      case 'run-together':
        return `${text}${text}`;
      case 'fragment':
        return text.slice(this.rng.int(5, Math.max(6, text.length - 5)));
      case 'cut':
        return text.slice(0, this.rng.int(10, Math.max(11, text.length - 10)));
      default:
        return `\u0000\u0000\u0000\u0000${text.slice(0, 20)}`;
    }
  }

  warnLine(level, category, message) {
    this.warn.push(`[${this.ts()}] [${level}] [${category}] ${message}\n`);
  }

  errorLine(phase, index, error, context) {
    const ctx = context ? `,"context":${context}` : '';
    this.errors.push(`{"event":"Error","timestamp":"${this.ts()}","session_id":"${this.sid}","data":{"phase":"${phase}","index":${index},"error":${JSON.stringify(error)}${ctx}}}\n`);
  }

  close() {
    this.events.close();
    this.warn.close();
    this.errors.close();
  }
}
