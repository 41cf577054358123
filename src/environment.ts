// The TRAJAUDIT_* variables, read and checked in one place. A bad value stops the command with one
// line naming the variable, its value and the accepted form (exit 2): ignored, it would silently
// run with the default the user meant to change; handed to DuckDB, it failed as an internal error.
// An empty value is the same as an unset one (`TRAJAUDIT_READER= trajaudit …`).
import { UsageError } from './errors.js';

export interface Environment {
  /** DuckDB's memory_limit, as written ("512MB", "1GiB"); undefined: trajaudit's default. */
  memoryLimit?: string;
  /** The JSONL reader: 'direct' (read_json, the default) or 'staged' (lines first). */
  reader: 'direct' | 'staged';
  /** DuckDB connections reading JSONL files side by side; undefined: 2, or 1 on one core. */
  parallel?: number;
  /** Bytes of JSONL per load commit group; undefined: 256 MiB. */
  commitBytes?: number;
}

function value(name: string): string | undefined {
  const text = process.env[name];
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

function invalid(name: string, text: string, accepted: string): UsageError {
  return new UsageError(`${name}=${JSON.stringify(process.env[name] ?? text)} is not valid: ${accepted}; fix or unset it`);
}

function positiveInteger(name: string, accepted: string): number | undefined {
  const text = value(name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) throw invalid(name, text, accepted);
  return Number(text);
}

// The units DuckDB's memory_limit takes, in bytes; a bare number has none and DuckDB refuses it.
const UNIT_BYTES: Record<string, number> = { b: 1, byte: 1, bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };
const MEMORY = new RegExp(`^\\d+(?:\\.\\d+)?\\s*(?:${Object.keys(UNIT_BYTES).join('|')})$`, 'i');

/** The bytes of a size as DuckDB reads it ("192MB": 192,000,000; "1GiB": 1,073,741,824), checked by `environment()`. */
export function sizeInBytes(size: string): number {
  const [, amount, unit] = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(size.trim()) ?? [];
  const scale = unit !== undefined && Object.hasOwn(UNIT_BYTES, unit.toLowerCase()) ? UNIT_BYTES[unit.toLowerCase()] : undefined;
  if (scale === undefined) throw new Error(`not a size: ${size}`);
  return Number(amount) * scale;
}

/** Every TRAJAUDIT_* variable the data commands read (TRAJAUDIT_DEBUG takes any value), checked. */
export function environment(): Environment {
  const memoryLimit = value('TRAJAUDIT_MEMORY_LIMIT');
  if (memoryLimit !== undefined && !MEMORY.test(memoryLimit)) {
    throw invalid('TRAJAUDIT_MEMORY_LIMIT', memoryLimit, 'give a size with its unit, e.g. 512MB, 1GiB or 2GB (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)');
  }
  const reader = value('TRAJAUDIT_READER') ?? 'direct';
  if (reader !== 'direct' && reader !== 'staged') throw invalid('TRAJAUDIT_READER', reader, 'use direct (the default) or staged');
  return {
    memoryLimit,
    reader,
    parallel: positiveInteger('TRAJAUDIT_PARALLEL', 'give a whole number of connections, 1 or more (default 2)'),
    commitBytes: positiveInteger('TRAJAUDIT_COMMIT_BYTES', 'give a whole number of bytes, 1 or more, e.g. 67108864 for 64 MiB (default 268435456)'),
  };
}
