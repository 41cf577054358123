// Tiny flag parser shared by the bench scripts (no dependency, no build step).
export function parseArgs(argv, spec) {
  const out = {};
  for (const [name, def] of Object.entries(spec)) if (def.default !== undefined) out[name] = def.default;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) fail(`unexpected argument ${arg}`);
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const def = spec[rawName];
    if (!def) fail(`unknown option --${rawName} (known: ${Object.keys(spec).map((k) => `--${k}`).join(', ')})`);
    if (def.type === 'boolean') {
      out[rawName] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) fail(`--${rawName} needs a value`);
    out[rawName] = def.type === 'number' ? toNumber(rawName, value) : def.type === 'size' ? parseSize(value) : value;
  }
  for (const [name, def] of Object.entries(spec)) if (def.required && out[name] === undefined) fail(`--${name} is required`);
  return out;
}

function toNumber(name, value) {
  const n = Number(value);
  if (!Number.isFinite(n)) fail(`--${name} must be a number, got ${value}`);
  return n;
}

const UNITS = { '': 1, b: 1, k: 1e3, kb: 1e3, kib: 1024, m: 1e6, mb: 1e6, mib: 1024 ** 2, g: 1e9, gb: 1e9, gib: 1024 ** 3 };

/** "1GiB", "512MiB", "200KB", "1048576" → bytes. */
export function parseSize(text) {
  const m = /^\s*([\d.]+)\s*([a-z]*)\s*$/i.exec(String(text));
  const unit = m && UNITS[m[2].toLowerCase()];
  if (!m || unit === undefined) fail(`cannot read size "${text}" (examples: 1GiB, 512MiB, 200KB)`);
  return Math.round(Number(m[1]) * unit);
}

export function formatSize(bytes) {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3}GiB`;
  if (bytes >= 1024 ** 2 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2}MiB`;
  return `${bytes}B`;
}

export function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}
