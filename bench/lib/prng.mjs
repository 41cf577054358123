// Deterministic PRNG (mulberry32) so a given --seed always yields byte-identical homes.
const B36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

export class Rng {
  constructor(seed) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  next() {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), 1 | t);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p) {
    return this.next() < p;
  }

  pick(items) {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Log-uniform in [lo, hi]: many small values, a long tail of big ones. */
  logUniform(lo, hi) {
    return Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo)));
  }

  /** Exponential with the given mean (gaps between rare events). */
  exp(mean) {
    return -Math.log(1 - this.next()) * mean;
  }

  hex(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[Math.floor(this.next() * 16)];
    return s;
  }

  base36(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += B36[Math.floor(this.next() * 36)];
    return s;
  }
}
