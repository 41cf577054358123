#!/usr/bin/env node
// Synthetic Claude Code config dir for the load benchmark (format: /work/shared/formats/claude-code.md,
// shapes copied from fixtures/claude-home).
//   node bench/gen-claude-home.mjs --out DIR --size 1GiB [--seed S] [--force] [--quiet]
// Writes DIR/.claude/projects/<project>/<session>.jsonl and <session>/subagents/agent-<id>.jsonl +
// .meta.json. --size is the total size of every file written (transcripts, sidechains, meta.json).
// Same seed → byte-identical tree. A manifest with exact counts goes to DIR.manifest.json (beside
// the home, written last, so a half-written home has none).
//
// Per session: user/assistant lines (one line per content block, sharing message.id, requestId and
// usage), tool_use/tool_result pairs (some is_error, sibling cascades in parallel batches),
// `system` `api_error` retry records in the newer and older error shapes, terminal
// `isApiErrorMessage` lines, `turn_duration`, file-history-snapshot, queue-operation,
// compact_boundary with its acompact sidechain, last-prompt; Task/Agent calls with a sidechain
// each (completed, silent API-error failures, errors before any assistant message, user aborts,
// never returned, background with <task-notification>). Text is cut from pools built once per
// run and stored JSON-escaped, so lines are assembled by concatenation, not JSON.stringify.
import fs from 'node:fs';
import path from 'node:path';
import { fail, formatSize, parseArgs } from './lib/args.mjs';
import { freshOutput } from './lib/corpus.mjs';
import { Rng } from './lib/prng.mjs';

const args = parseArgs(process.argv.slice(2), {
  out: { type: 'string', required: true },
  size: { type: 'size', default: 1024 ** 3 },
  seed: { type: 'number', default: 1 },
  force: { type: 'boolean' },
  quiet: { type: 'boolean' },
});

const MIN_SESSION = 0.5 * 1024 * 1024;
const MAX_SESSION = 20 * 1024 * 1024;
const WINDOW_START = Date.UTC(2026, 9, 20); // 2026-10-20 … 2026-11-19
const WINDOW_MS = 30 * 24 * 3600 * 1000;
const CHUNK = 8 * 1024 * 1024; // bytes buffered for a main transcript before one write (1 MiB for sidechains)
const COMPACT_AT = 160_000; // context tokens that trigger an auto compaction

// ───────────────────────── ids, escaping ─────────────────────────
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const esc = (s) => JSON.stringify(s).slice(1, -1);
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
const u32 = (rng) => (rng.next() * 4294967296) >>> 0;
const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
function hex8(rng) {
  const x = u32(rng);
  return HEX2[x >>> 24] + HEX2[(x >>> 16) & 255] + HEX2[(x >>> 8) & 255] + HEX2[x & 255];
}
function uuid(rng) {
  const a = hex8(rng);
  const b = hex8(rng);
  const c = hex8(rng);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${'89ab'[c.charCodeAt(7) & 3]}${c.slice(1, 4)}-${c.slice(4, 8)}${hex8(rng)}`;
}
function b62(rng, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += B62[Math.floor(rng.next() * 62)];
  return s;
}
const msgId = (rng) => `msg_01${b62(rng, 22)}`;
const toolId = (rng) => `toolu_01${b62(rng, 22)}`;
const reqId = (rng) => `req_011C${b62(rng, 20)}`;
const agentHex = (rng) => `a${hex8(rng)}${hex8(rng)}`; // 17 hex digits, like the fixture's

// ───────────────────────── text pools ─────────────────────────
const WORDS = ('the a to of and in for with that this is it on by from as not be are was we can should will would then also when '
  + 'if but so only all each every before after into over under between without cart total rounding cents line item coupon '
  + 'discount payment refund charge order shipping weight price currency tax invoice customer session token cache request '
  + 'response handler route middleware schema migration index query table column row cursor page limit offset retry timeout '
  + 'error failure test suite fixture mock stub spec assertion build lint type interface function module import export default '
  + 'config env flag option parser reader writer stream buffer queue worker job scheduler lock mutex promise async await '
  + 'callback event listener emitter state store reducer action component render props hook effect memo context provider '
  + 'fix bug regression change update refactor rename move extract inline delete add remove check verify confirm run rerun '
  + 'read write edit search find grep list show print log trace debug inspect compare diff patch commit branch merge rebase '
  + 'now first next last still already again instead probably likely clearly simply directly').split(' ');
const IDS = ('cartTotal lineTotal applyCoupon parseLimit encodeCursor decodeCursor fetchOrders createCharge refundPayment '
  + 'computeTax formatPrice loadConfig readSession writeSession retryWithBackoff withTimeout acquireLock releaseLock '
  + 'validateSchema migrateUp migrateDown buildIndex runQuery mapRow toCents fromCents roundHalfEven normalizeCurrency '
  + 'handleRequest sendResponse parseBody authMiddleware rateLimiter cacheGet cacheSet invalidate scheduleJob runWorker '
  + 'enqueue dequeue flushQueue emitEvent subscribe unsubscribe renderCart useCart CartProvider PriceLabel CheckoutForm '
  + 'OrderTable ShippingRate TaxTable currencyMinorUnits isRetryable backoffDelay makeClient closePool openPool').split(' ');
const TYPES = ['number', 'string', 'boolean', 'Order', 'LineItem', 'Cart', 'Money', 'Coupon', 'Request', 'Response', 'Promise<void>', 'unknown', 'Currency', 'Session'];
const DIRS = ['cart', 'payment', 'shipping', 'api', 'db', 'ui', 'auth', 'utils', 'jobs', 'config', 'http', 'lib', 'handlers', 'i18n'];
const TOOLS_OUT = ['vitest', 'tsc', 'eslint', 'npm', 'git', 'node', 'prettier', 'jest'];

/** A big JSON-escaped string cut only at recorded boundaries, so every slice stays valid JSON. */
class Cuttable {
  constructor(parts, sep) {
    const offsets = [0];
    let len = 0;
    const escSep = esc(sep);
    const escaped = parts.map((p, i) => {
      const e = (NEEDS_ESCAPE.test(p) ? esc(p) : p) + (i < parts.length - 1 ? escSep : '');
      len += e.length;
      offsets.push(len);
      return e;
    });
    this.text = escaped.join('');
    this.offsets = offsets; // offsets[i] = start of part i; last = end
    this.count = parts.length;
    this.sepLength = escSep.length;
  }

  /** About `chars` characters from a random part boundary, ending on a boundary (separator dropped). */
  take(rng, chars) {
    const { offsets, count } = this;
    let start = Math.floor(rng.next() * count);
    if (offsets[count] - offsets[start] < chars) start = 0;
    const want = offsets[start] + Math.max(1, chars);
    let lo = start + 1;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (offsets[mid] < want) lo = mid + 1;
      else hi = mid;
    }
    return this.text.slice(offsets[start], lo < count ? offsets[lo] - this.sepLength : offsets[lo]);
  }
}

function buildPools(rng) {
  const word = () => rng.pick(WORDS);
  const id = () => rng.pick(IDS);
  const file = () => `src/${rng.pick(DIRS)}/${rng.pick(IDS)}.ts`;
  const words = (lo, hi) => {
    const n = rng.int(lo, hi);
    const w = [];
    for (let i = 0; i < n; i++) w.push(word());
    return w.join(' ');
  };
  const sentence = () => {
    let s = words(5, 18);
    if (rng.chance(0.35)) s += ` \`${id()}\``;
    if (rng.chance(0.2)) s += ` in ${file()}:${rng.int(1, 400)}`;
    if (rng.chance(0.1)) s += ` ("${words(2, 5)}")`;
    s = `${s[0].toUpperCase()}${s.slice(1)}.`;
    if (rng.chance(0.08)) s = `- ${s}`;
    return s;
  };
  const sentences = [];
  for (let i = 0; i < 6000; i++) sentences.push(sentence() + (rng.chance(0.12) ? '\n\n' : ''));
  const prose = new Cuttable(sentences, ' ');

  const codeLine = () => {
    switch (rng.int(0, 11)) {
      case 0: return `import { ${id()}, ${id()} } from './${id()}';`;
      case 1: return `export function ${id()}(${rng.pick(['a', 'items', 'req', 'opts'])}: ${rng.pick(TYPES)}, ${rng.pick(['b', 'qty', 'res', 'ctx'])}: ${rng.pick(TYPES)}): ${rng.pick(TYPES)} {`;
      case 2: return `  const ${rng.pick(['sum', 'cents', 'rows', 'next', 'limit'])} = ${id()}(${rng.pick(['items', 'req.query', 'row', 'opts'])}.${id()}, ${rng.int(0, 500)});`;
      case 3: return `  if (!${rng.pick(['row', 'cursor', 'session', 'lock'])}) throw new Error("${words(2, 6)}");`;
      case 4: return `  return ${rng.pick(['sum', 'cents / 100', 'rows.map(mapRow)', 'next', '{ ok: true }'])};`;
      case 5: return '}';
      case 6: return '';
      case 7: return `  // ${words(4, 14)}`;
      case 8: return `    ${id()}: ${rng.int(0, 9999)},`;
      case 9: return `  await ${id()}(\`${words(2, 6)}\`);`;
      case 10: return `describe('${id()}', () => { it('${words(3, 8)}', () => expect(${id()}(${rng.int(1, 99)})).toBe(${rng.int(1, 99)})); });`;
      default: return `  for (const ${rng.pick(['item', 'row', 'job'])} of ${rng.pick(['items', 'rows', 'queue'])}) ${id()}(${rng.pick(['item', 'row', 'job'])});`;
    }
  };
  // Source files: numbered (Read's tool_result) and plain (toolUseResult.file.content).
  const files = [];
  for (let f = 0; f < 400; f++) {
    const n = Math.round(rng.logUniform(8, 1600));
    const lines = [];
    for (let i = 0; i < n; i++) lines.push(codeLine());
    const numbered = lines.map((l, i) => `${String(i + 1).padStart(6)}→${l}`);
    files.push({ path: file(), lines: n, numbered: new Cuttable(numbered, '\n'), plain: new Cuttable(lines, '\n') });
  }

  const outLine = () => {
    switch (rng.int(0, 9)) {
      case 0: return ` ✓ test/${rng.pick(DIRS)}/${id()}.test.ts (${rng.int(1, 40)} tests) ${rng.int(3, 2400)}ms`;
      case 1: return ` × ${id()} > ${words(3, 8)}\n   → expected ${rng.int(0, 99)} to be ${rng.int(0, 99)}`;
      case 2: return `${hex8(rng).slice(0, 7)} ${rng.pick(DIRS)}: ${words(3, 9)} (#${rng.int(10, 900)})`;
      case 3: return `${file()}(${rng.int(1, 400)},${rng.int(1, 80)}): error TS2345: Argument of type '${rng.pick(TYPES)}' is not assignable to parameter of type '${rng.pick(TYPES)}'.`;
      case 4: return `npm warn deprecated ${rng.pick(IDS).toLowerCase()}@${rng.int(0, 9)}.${rng.int(0, 20)}.${rng.int(0, 9)}: ${words(3, 8)}`;
      case 5: return `-rw-r--r--  1 dev  staff  ${rng.int(80, 90000)} Nov ${rng.int(1, 30)} ${rng.int(10, 23)}:${String(rng.int(0, 59)).padStart(2, '0')} ${id()}.ts`;
      case 6: return `    at ${id()} (/home/dev/shop/${file()}:${rng.int(1, 400)}:${rng.int(1, 80)})`;
      case 7: return `${file()}:${rng.int(1, 400)}:${codeLine().trim()}`;
      case 8: return `[${rng.pick(TOOLS_OUT)}] ${words(3, 10)}`;
      default: return ` Test Files  ${rng.int(1, 40)} passed (${rng.int(1, 40)})\n      Tests  ${rng.int(1, 400)} passed (${rng.int(1, 400)})\n   Duration  ${rng.int(1, 30)}.${rng.int(10, 99)}s`;
    }
  };
  const outLines = [];
  for (let i = 0; i < 30000; i++) outLines.push(outLine());
  const output = new Cuttable(outLines, '\n');

  const pathLines = [];
  for (let i = 0; i < 4000; i++) pathLines.push(`/home/dev/shop/${file()}`);
  const paths = new Cuttable(pathLines, '\n');

  let sig = '';
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 20000; i++) sig += B64[Math.floor(rng.next() * 64)];

  return { prose, files, output, paths, sig, words, file, id };
}

// ───────────────────────── output ─────────────────────────
/** Write buffers of closed files, reused: fresh ones cost page faults on every first touch. */
const FREE_BUFFERS = new Map();

class Sink {
  constructor(file, stats, bufBytes) {
    this.fd = fs.openSync(file, 'w');
    this.buf = (FREE_BUFFERS.get(bufBytes) ?? []).pop() ?? Buffer.allocUnsafe(bufBytes);
    this.off = 0;
    this.stats = stats;
    stats.files++;
  }

  /** Encodes straight into the file's buffer: no joined chunk string, one write per buffer. */
  push(s) {
    this.stats.chars += s.length;
    if (s.length * 3 > this.buf.length - this.off) {
      this.flush();
      if (s.length * 3 > this.buf.length) {
        this.stats.bytes += fs.writeSync(this.fd, s);
        return;
      }
    }
    this.off += this.buf.write(s, this.off);
  }

  newline() {
    if (this.off === this.buf.length) this.flush();
    this.buf[this.off++] = 10;
    this.stats.chars++;
  }

  flush() {
    if (this.off === 0) return;
    let done = 0;
    while (done < this.off) done += fs.writeSync(this.fd, this.buf, done, this.off - done);
    this.stats.bytes += this.off;
    this.off = 0;
  }

  close() {
    this.flush();
    fs.closeSync(this.fd);
    const free = FREE_BUFFERS.get(this.buf.length) ?? [];
    free.push(this.buf);
    FREE_BUFFERS.set(this.buf.length, free);
    this.buf = null;
  }
}

function writeSmall(file, text, stats) {
  fs.writeFileSync(file, text);
  stats.files++;
  stats.chars += text.length;
  stats.bytes += Buffer.byteLength(text);
}

// ───────────────────────── the simulation ─────────────────────────
const MAIN_MODELS = ['claude-opus-4-6', 'claude-opus-4-6', 'claude-sonnet-4-5-20250929'];
const SUB_MODELS = ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'];
const VERSIONS = ['2.1.38', '2.1.39', '2.1.39', '2.1.63', '2.1.90'];
const SLUG_A = ['quiet', 'amber', 'brisk', 'patient', 'gentle', 'silver', 'rapid', 'misty', 'bold', 'calm'];
const SLUG_B = ['rounding', 'parallel', 'health', 'loader', 'cursor', 'ledger', 'signal', 'harbor', 'meadow', 'copper'];
const SLUG_C = ['heron', 'finch', 'otter', 'moth', 'lynx', 'wren', 'badger', 'falcon', 'newt', 'crane'];
const PROJECTS = ['/home/dev/shop', '/home/dev/api', '/home/dev/web-app', '/Users/alex/code/billing', '/home/dev/infra',
  '/home/dev/shop-admin', '/Users/alex/code/mobile', '/home/dev/data-pipeline', '/home/dev/docs', '/home/dev/cli-tools'];
const BRANCHES = ['main', 'main', 'fix/cart-rounding', 'feat/orders-pagination', 'chore/deps', 'feat/refunds', 'fix/flaky-e2e'];
const NET_CODES = ['ECONNRESET', 'ECONNRESET', 'ECONNRESET', 'ConnectionRefused', 'FailedToOpenSocket', 'ETIMEDOUT', 'EPIPE'];
const AGENT_TYPES = ['general-purpose', 'general-purpose', 'Explore', 'Explore', 'Plan'];

function usageJson(u) {
  return `{"input_tokens":${u.input},"cache_creation_input_tokens":${u.create},"cache_read_input_tokens":${u.read},"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":${u.create}},"output_tokens":${u.output},"service_tier":"standard","inference_geo":"not_available"}`;
}
const ZERO_USAGE = '{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":null,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0}}';
const OVERLOADED = (rng) => `529 {\\"type\\":\\"error\\",\\"error\\":{\\"type\\":\\"overloaded_error\\",\\"message\\":\\"Overloaded\\"},\\"request_id\\":\\"${reqId(rng)}\\"}`;
const RATE_LIMIT = (rng) => `429 {\\"type\\":\\"error\\",\\"error\\":{\\"type\\":\\"rate_limit_error\\",\\"message\\":\\"This request would exceed the rate limit for your organization of 2,000,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. Please reduce the prompt length or the maximum tokens requested, or try again later.\\"},\\"request_id\\":\\"${reqId(rng)}\\"}`;

/** One transcript file: main thread or a sidechain, with its own clock and parent chain. */
class Thread {
  constructor(session, file, { agentId = null, model, t }) {
    this.s = session;
    this.rng = session.rng;
    this.sink = new Sink(file, session.g.stats, agentId ? 1 << 20 : CHUNK);
    this.agentId = agentId;
    this.model = model;
    this.t = t;
    this.last = null; // uuid of the last chain line
    this.ctx = session.rng.int(12000, 22000); // context tokens (cache_read)
    this.fresh = 0; // tokens added since the last response (tool results): its cache_creation
    this.assistantMessages = 0;
    this.toolUses = 0;
    this.tokens = 0;
    const s = session;
    this.env = `"isSidechain":${agentId ? 'true' : 'false'},"userType":"external","cwd":"${s.cwd}","sessionId":"${s.id}","version":"${s.version}","gitBranch":"${s.branch}",${agentId ? `"agentId":"${agentId}",` : ''}"slug":"${s.slug}"`;
  }

  tick(lo, hi) {
    this.t += this.rng.int(lo, hi);
    return new Date(this.t).toISOString();
  }

  line(text) {
    this.sink.push(text);
    this.sink.newline();
    this.s.g.stats.lines++;
  }

  /** A chain line: `body` goes between the envelope and uuid/timestamp. */
  chain(body, tail = '', gap = [20, 400]) {
    const u = uuid(this.rng);
    const ts = this.tick(gap[0], gap[1]);
    this.line(`{"parentUuid":${this.last ? `"${this.last}"` : 'null'},${this.env},${body},"uuid":"${u}","timestamp":"${ts}"${tail}}`);
    this.last = u;
    return u;
  }

  userText(text, extra = ',"permissionMode":"default"') {
    return this.chain(`"type":"user","message":{"role":"user","content":"${text}"}`, extra, [2000, 90000]);
  }

  /** One API response: one line per block, all sharing message.id, requestId and usage. */
  response(blocks) {
    const { rng } = this;
    const id = msgId(rng);
    const req = reqId(rng);
    const create = this.fresh + rng.int(50, 600);
    const output = rng.int(30, 900) + blocks.length * 40;
    const u = { input: rng.int(1, 8), create, read: this.ctx, output };
    this.ctx += create + output;
    this.fresh = 0;
    this.tokens += create + output + u.input;
    const usage = usageJson(u);
    this.t += rng.int(1500, 20000); // time to first token
    for (const block of blocks) {
      this.chain(`"message":{"model":"${this.model}","id":"${id}","type":"message","role":"assistant","content":[${block}],"stop_reason":null,"stop_sequence":null,"usage":${usage}},"requestId":"${req}","type":"assistant"`, '', [80, 900]);
    }
    this.assistantMessages++;
    this.s.g.stats.responses++;
  }

  toolResult(toolUseId, content, { isError = false, bashOk = false, result = null, blocks = false } = {}) {
    const flag = isError ? ',"is_error":true' : bashOk ? ',"is_error":false' : '';
    this.fresh += Math.round(content.length / 4);
    const u = uuid(this.rng);
    const ts = this.tick(30, 3000);
    const { sink } = this;
    // Pushed in pieces: the big texts are slices of the pools, written without being copied into a line string first.
    sink.push(`{"parentUuid":${this.last ? `"${this.last}"` : 'null'},${this.env},"type":"user","message":{"role":"user","content":[{"tool_use_id":"${toolUseId}","type":"tool_result","content":${blocks ? '' : '"'}`);
    sink.push(content);
    sink.push(`${blocks ? '' : '"'}${flag}}]},"uuid":"${u}","timestamp":"${ts}"${result === null ? '' : ',"toolUseResult":'}`);
    if (typeof result === 'string') sink.push(result);
    else if (result) for (const part of result) sink.push(part);
    sink.push('}');
    sink.newline();
    this.last = u;
    this.s.g.stats.lines++;
    this.s.g.stats.toolResults++;
  }

  synthetic(error, status, text) {
    const u = uuid(this.rng);
    const ts = this.tick(200, 4000);
    this.line(`{"parentUuid":${this.last ? `"${this.last}"` : 'null'},${this.env},"type":"assistant","uuid":"${u}","timestamp":"${ts}","message":{"id":"${uuid(this.rng)}","container":null,"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":${ZERO_USAGE},"content":[{"type":"text","text":"${text}"}],"context_management":null},"error":"${error}","isApiErrorMessage":true,"apiErrorStatus":${status}}`);
    this.last = u;
  }

  close() {
    this.sink.close();
  }
}

/** Tool calls: returns the tool_use block and a function that writes its result. */
function toolCall(th, name, forceError = false) {
  const { rng } = th;
  const P = th.s.g.pools;
  const id = toolId(rng);
  const stats = th.s.g.stats;
  const big = rng.chance(0.05);
  let input;
  let write;
  const err = forceError || rng.chance(0.055);
  switch (name) {
    case 'Read': {
      const f = rng.pick(P.files);
      const want = big ? rng.int(10_000, 60_000) : Math.round(rng.logUniform(250, 3000));
      input = `{"file_path":"/home/dev/shop/${f.path}"}`;
      write = () => {
        if (err) return th.toolResult(id, '<tool_use_error>File does not exist.</tool_use_error>', { isError: true, result: '"Error: File does not exist."' });
        const text = f.numbered.take(rng, want);
        const plain = f.plain.take(rng, Math.round(want * 0.88));
        th.toolResult(id, text, { result: [`{"type":"text","file":{"filePath":"/home/dev/shop/${f.path}","content":"`, plain, `","numLines":${rng.int(1, f.lines)},"startLine":1,"totalLines":${f.lines}}}`] });
      };
      break;
    }
    case 'Bash': {
      const bg = rng.chance(0.02) && !th.agentId;
      input = `{"command":"${rng.pick(['npx vitest run', 'npm test', 'git status', 'git diff --stat', 'npx tsc --noEmit', 'npm run lint', 'ls -la src', 'git log --oneline -20'])} ${rng.pick(DIRS)}","description":"${P.words(2, 5)}"${bg ? ',"run_in_background":true' : ''}}`;
      write = () => {
        if (bg) {
          const task = `b${hex8(rng).slice(0, 6)}`;
          th.toolResult(id, `Command running in background with ID: ${task}. Output is being written to: /tmp/claude-1000/${th.s.projectDir}/tasks/${task}.output`, { bashOk: true, result: `{"stdout":"","stderr":"","interrupted":false,"isImage":false,"backgroundTaskId":"${task}"}` });
          th.s.notify({ at: th.t + rng.int(20_000, 600_000), task, toolUseId: id, status: rng.chance(0.85) ? 'completed' : 'failed', summary: `Background command \\"${P.words(2, 4)}\\" ${rng.chance(0.8) ? 'completed (exit code 0)' : 'failed with exit code 1'}`, shell: true });
          return;
        }
        const want = big ? rng.int(10_000, 60_000) : Math.round(rng.logUniform(40, 2500));
        const out = P.output.take(rng, want);
        if (err) {
          if (rng.chance(0.15)) return th.toolResult(id, '[Request interrupted by user for tool use]', { isError: true, result: '"Error: [Request interrupted by user for tool use]"' });
          return th.toolResult(id, `<tool_use_error>Error: Exit code 1\\n${out}</tool_use_error>`, { isError: true, result: ['"Error: Exit code 1\\n', out, '"'] });
        }
        th.toolResult(id, out, { bashOk: true, result: ['{"stdout":"', out, '","stderr":"","interrupted":false,"isImage":false}'] });
      };
      break;
    }
    case 'Edit': {
      const f = rng.pick(P.files);
      const oldS = f.plain.take(rng, rng.int(40, 700));
      const newS = f.plain.take(rng, rng.int(40, 800));
      input = `{"file_path":"/home/dev/shop/${f.path}","old_string":"${oldS}","new_string":"${newS}","replace_all":false}`;
      write = () => {
        if (err) return th.toolResult(id, `<tool_use_error>String to replace not found in file.\\nString: ${oldS}</tool_use_error>`, { isError: true, result: '"Error: String to replace not found in file."' });
        th.toolResult(id, `The file /home/dev/shop/${f.path} has been updated successfully.`, { result: `{"filePath":"/home/dev/shop/${f.path}","oldString":"${oldS}","newString":"${newS}","structuredPatch":[{"oldStart":${rng.int(1, 300)},"oldLines":4,"newStart":${rng.int(1, 300)},"newLines":4,"lines":[]}],"userModified":false,"replaceAll":false}` });
      };
      break;
    }
    case 'Write': {
      const f = rng.pick(P.files);
      const body = f.plain.take(rng, Math.round(rng.logUniform(300, 8000)));
      input = `{"file_path":"/home/dev/shop/${f.path}","content":"${body}"}`;
      write = () => {
        if (err) return th.toolResult(id, '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>', { isError: true, result: '"Error: File has not been read yet. Read it first before writing to it."' });
        th.toolResult(id, `File created successfully at: /home/dev/shop/${f.path}`, { result: `{"type":"create","filePath":"/home/dev/shop/${f.path}","content":"${body}","structuredPatch":[]}` });
      };
      break;
    }
    case 'Grep':
    case 'Glob': {
      input = name === 'Grep' ? `{"pattern":"${rng.pick(IDS)}|${rng.pick(IDS)}","path":"src","output_mode":"${rng.pick(['files_with_matches', 'content'])}"}` : `{"pattern":"src/${rng.pick(DIRS)}/**/*.ts"}`;
      write = () => {
        if (err) return th.toolResult(id, '<tool_use_error>Path does not exist: src/legacy</tool_use_error>', { isError: true, result: '"Error: Path does not exist: src/legacy"' });
        const list = big ? P.output.take(rng, rng.int(10_000, 40_000)) : P.paths.take(rng, Math.round(rng.logUniform(60, 1500)));
        th.toolResult(id, list, { result: `{"mode":"files_with_matches","filenames":[],"numFiles":${rng.int(0, 40)}}` });
      };
      break;
    }
    case 'TodoWrite': {
      const todo = () => `{"content":"${P.words(3, 9)}","status":"${rng.pick(['pending', 'in_progress', 'completed'])}","activeForm":"${P.words(2, 6)}"}`;
      const todos = Array.from({ length: rng.int(2, 7) }, todo).join(',');
      input = `{"todos":[${todos}]}`;
      write = () => th.toolResult(id, 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable', { result: `{"oldTodos":[],"newTodos":[${todos}]}` });
      break;
    }
    default: { // WebFetch
      input = `{"url":"https://docs.example.com/${rng.pick(DIRS)}/${rng.pick(IDS)}","prompt":"${P.words(4, 10)}"}`;
      write = () => {
        if (err) return th.toolResult(id, '<tool_use_error>Request failed with status code 404</tool_use_error>', { isError: true, result: '"Error: Request failed with status code 404"' });
        const text = P.prose.take(rng, Math.round(rng.logUniform(400, 5000)));
        th.toolResult(id, text, { result: [`{"bytes":${rng.int(5000, 90000)},"code":200,"codeText":"OK","result":"`, text, `","durationMs":${rng.int(300, 9000)},"url":"https://docs.example.com/"}`] });
      };
    }
  }
  stats.toolUses++;
  th.toolUses++;
  return { id, name, err, block: `{"type":"tool_use","id":"${id}","name":"${name}","input":${input}}`, write };
}

const MAIN_TOOLS = ['Read', 'Read', 'Read', 'Bash', 'Bash', 'Bash', 'Edit', 'Edit', 'Grep', 'Glob', 'Write', 'TodoWrite', 'WebFetch'];
const AGENT_TOOLS = ['Read', 'Read', 'Grep', 'Grep', 'Glob', 'Bash', 'Bash', 'WebFetch'];

/** One step: optional thinking/text, then tool_use blocks, then their results (cascades after a failed Bash). */
function step(th, tools) {
  const { rng } = th;
  const P = th.s.g.pools;
  const blocks = [];
  if (th.s.thinking && rng.chance(0.3)) blocks.push(`{"type":"thinking","thinking":"${P.prose.take(rng, Math.round(rng.logUniform(100, 2500)))}","signature":"${P.sig.slice(0, rng.int(200, 1400))}"}`);
  if (rng.chance(0.45)) blocks.push(`{"type":"text","text":"${P.prose.take(rng, Math.round(rng.logUniform(40, 600)))}"}`);
  const n = rng.chance(0.18) ? rng.int(2, 4) : 1;
  const calls = [];
  for (let i = 0; i < n; i++) calls.push(toolCall(th, rng.pick(tools)));
  for (const c of calls) blocks.push(c.block);
  th.response(blocks);
  let cascade = false;
  for (const c of calls) {
    if (cascade) {
      th.toolResult(c.id, '<tool_use_error>Sibling tool call errored</tool_use_error>', { isError: true, result: '"Sibling tool call errored"' });
      th.s.g.stats.siblingCascades++;
      continue;
    }
    c.write();
    if (c.err) th.s.g.stats.toolErrors++;
    if (c.err && c.name === 'Bash' && calls.length > 1) cascade = true;
  }
}

class Session {
  constructor(g, { startMs, target, project }) {
    const { rng } = g;
    this.g = g;
    this.rng = rng;
    this.id = uuid(rng);
    this.cwd = project;
    this.projectDir = project.replace(/[^a-zA-Z0-9]/g, '-');
    this.dir = path.join(g.projects, this.projectDir);
    this.version = rng.pick(VERSIONS);
    this.branch = rng.pick(BRANCHES);
    this.slug = `${rng.pick(SLUG_A)}-${rng.pick(SLUG_B)}-${rng.pick(SLUG_C)}`;
    this.thinking = rng.chance(0.4);
    this.target = target;
    this.startMs = startMs;
    this.pending = []; // background notifications not yet delivered
    this.subDir = null;
  }

  subagentsDir() {
    if (!this.subDir) {
      this.subDir = path.join(this.dir, this.id, 'subagents');
      fs.mkdirSync(this.subDir, { recursive: true });
    }
    return this.subDir;
  }

  notify(n) {
    this.pending.push(n);
  }

  /** Deliver background notifications that are due: queue-operation enqueue + remove, or a user line. */
  deliver(force = false) {
    const m = this.main;
    const { rng } = this;
    this.pending.sort((a, b) => a.at - b.at);
    while (this.pending.length && (force || this.pending[0].at <= m.t)) {
      const n = this.pending.shift();
      m.t = Math.max(m.t, n.at);
      const toolLine = n.toolUseId && rng.chance(0.9) ? `\\n<tool-use-id>${n.toolUseId}</tool-use-id>` : '';
      const output = n.shell ? `\\n<output-file>/tmp/claude-1000/${this.projectDir}/tasks/${n.task}.output</output-file>` : '';
      const result = n.result ? `\\n<result>${n.result}</result>` : '';
      const usage = n.usage ? `\\n<usage>${n.usage}</usage>` : '';
      const body = `<task-notification>\\n<task-id>${n.task}</task-id>${toolLine}${output}\\n<status>${n.status}</status>\\n<summary>${n.summary}</summary>${result}${usage}\\n</task-notification>\\nRead the output file to retrieve the result: /tmp/claude-1000/${this.projectDir}/tasks/${n.task}.output`;
      if (rng.chance(0.8)) {
        m.line(`{"type":"queue-operation","operation":"enqueue","timestamp":"${m.tick(5, 200)}","sessionId":"${this.id}","content":"${body}"}`);
        m.line(`{"type":"queue-operation","operation":"remove","timestamp":"${m.tick(5, 200)}","sessionId":"${this.id}"}`);
      } else {
        m.userText(body, '');
      }
      this.g.stats.notifications++;
      if (!n.shell) this.g.stats.agents.notified[n.status]++;
      // The parent answers the notification.
      m.response([`{"type":"text","text":"${this.g.pools.prose.take(rng, rng.int(60, 400))}"}`]);
    }
  }

  /** A Task/Agent call from the main thread, with its sidechain. `outcome` may be forced. */
  task(outcome) {
    const { rng, g } = this;
    const m = this.main;
    const P = g.pools;
    const stats = g.stats;
    const toolUseId = toolId(rng);
    const agentId = agentHex(rng);
    const type = rng.pick(AGENT_TYPES);
    const description = P.words(3, 6);
    const prompt = P.prose.take(rng, Math.round(rng.logUniform(150, 2500)));
    const background = outcome === 'background';
    const name = this.version >= '2.1.63' ? 'Agent' : 'Task';
    const blocks = [];
    if (rng.chance(0.6)) blocks.push(`{"type":"text","text":"${P.prose.take(rng, rng.int(40, 300))}"}`);
    blocks.push(`{"type":"tool_use","id":"${toolUseId}","name":"${name}","input":{"description":"${description}","prompt":"${prompt}","subagent_type":"${type}"${background ? ',"run_in_background":true' : ''}}}`);
    m.response(blocks);
    stats.toolUses++;
    stats.subagents++;
    stats.agents[outcome]++;

    const dir = this.subagentsDir();
    const meta = `{"agentType":"${type}","description":"${description}"${this.version >= '2.1.63' ? `,"toolUseId":"${toolUseId}"` : ''}}`;
    writeSmall(path.join(dir, `agent-${agentId}.meta.json`), meta, stats);
    const sc = new Thread(this, path.join(dir, `agent-${agentId}.jsonl`), { agentId, model: rng.pick(SUB_MODELS), t: m.t + rng.int(40, 120) });
    sc.chain(`"type":"user","message":{"role":"user","content":"${prompt}"}`, '', [0, 0]);
    const steps = outcome === 'errorBeforeAssistant' ? 0 : Math.round(rng.logUniform(1, 30));
    for (let i = 0; i < steps; i++) step(sc, AGENT_TOOLS);
    let answer = '';
    let apiError = '';
    if (outcome === 'silent') {
      const kind = rng.chance(0.7);
      apiError = kind ? `API Error: ${OVERLOADED(rng)}` : `API Error: ${RATE_LIMIT(rng)}`;
      sc.synthetic(kind ? 'server_error' : 'rate_limit', kind ? 529 : 429, apiError);
    } else if (outcome === 'aborted') {
      const pending = toolCall(sc, 'Bash');
      sc.response([pending.block]);
      sc.toolResult(pending.id, '[Request interrupted by user for tool use]', { isError: true });
    } else if (outcome === 'neverReturned') {
      sc.response([toolCall(sc, rng.pick(AGENT_TOOLS)).block]);
    } else if (outcome !== 'errorBeforeAssistant') {
      answer = P.prose.take(rng, Math.round(rng.logUniform(200, 4000)));
      if (!(background && rng.chance(0.15))) sc.response([`{"type":"text","text":"${answer}"}`]);
    }
    sc.close();
    const duration = sc.t - m.t;
    const trailerUsage = `total_tokens: ${outcome === 'silent' ? 0 : sc.tokens}\\ntool_uses: ${sc.toolUses}\\nduration_ms: ${duration}`;

    if (outcome === 'neverReturned') return;
    if (background) {
      m.toolResult(toolUseId, `[{"type":"text","text":"Async agent launched successfully.\\nagentId: ${agentId} (This is an internal ID for your use, do not mention it to the user. Use this ID to retrieve results with TaskOutput when the agent finishes).\\nThe agent is currently working in the background. If you have other tasks you should continue working on them now."}]`, { blocks: true, result: `{"isAsync":true,"status":"async_launched","agentId":"${agentId}","description":"${description}","prompt":"${prompt}","outputFile":"/tmp/claude-1000/${this.projectDir}/tasks/${agentId}.output"}` });
      const r = rng.next();
      const status = r < 0.8 ? 'completed' : r < 0.93 ? 'failed' : 'killed';
      this.notify({
        at: sc.t + rng.int(100, 5000), task: agentId, toolUseId, status,
        summary: status === 'completed' ? `Agent \\"${description}\\" completed` : status === 'failed' ? `Agent \\"${description}\\" failed: Request timed out.` : `Agent \\"${description}\\" was stopped`,
        result: status === 'completed' ? P.prose.take(rng, rng.int(100, 1200)) : null,
        usage: status === 'completed' ? trailerUsage : null,
      });
      return;
    }
    m.t = Math.max(m.t, sc.t);
    if (outcome === 'errorBeforeAssistant') {
      m.toolResult(toolUseId, '<tool_use_error>Error: No assistant messages found</tool_use_error>', { isError: true, result: '"Error: No assistant messages found"' });
      return;
    }
    if (outcome === 'aborted') {
      m.toolResult(toolUseId, '[Request interrupted by user for tool use]', { isError: true, result: '"Error: AbortError: The operation was aborted."' });
      m.chain('"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}', '', [5, 60]);
      return 'interrupted';
    }
    const text = outcome === 'silent' ? apiError : answer;
    const usage = outcome === 'silent' ? ZERO_USAGE : usageJson({ input: rng.int(5, 40), create: rng.int(2000, 9000), read: sc.tokens, output: rng.int(100, 2000) });
    m.toolResult(toolUseId, `[{"type":"text","text":"${text}"},{"type":"text","text":"agentId: ${agentId} (for resuming to continue this agent's work if needed)\\n<usage>${trailerUsage}</usage>"}]`, {
      blocks: true,
      result: `{"status":"completed","prompt":"${prompt}","agentId":"${agentId}","content":[{"type":"text","text":"${text}"}],"totalDurationMs":${duration},"totalTokens":${outcome === 'silent' ? 0 : sc.tokens},"totalToolUseCount":${sc.toolUses},"usage":${usage}}`,
    });
    return undefined;
  }

  /** Retries before a main-thread response; returns true when the request finally failed. */
  retries() {
    const { rng, g } = this;
    const m = this.main;
    const stats = g.stats;
    if (rng.chance(0.0015)) { // a 429 with x-should-retry: false: terminal, zero retries
      m.synthetic('rate_limit', 429, `API Error: ${RATE_LIMIT(rng)}`);
      stats.terminalErrors++;
      return true;
    }
    if (!rng.chance(0.012)) return false;
    const r = rng.next();
    const kind = r < 0.6 ? 'net' : r < 0.85 ? 529 : r < 0.95 ? rng.pick([500, 502, 503]) : 429;
    const attempts = Math.min(10, 1 + Math.floor(rng.exp(kind === 'net' ? 1.2 : 2)));
    const terminal = attempts === 10 || rng.chance(0.12);
    for (let k = 1; k <= attempts; k++) {
      const retryIn = (Math.min(32000, 500 * 2 ** (k - 1)) * (1 + rng.next() * 0.25)).toFixed(1);
      const code = rng.pick(NET_CODES);
      let error;
      if (rng.chance(0.6)) { // newer shape
        error = kind === 'net'
          ? `{"message":"Connection error.","formatted":"Unable to connect to API (${code})","status":null,"connection":{"code":"${code}","isSSLError":false},"isNetworkDown":false}`
          : `{"message":"${kind === 529 ? OVERLOADED(rng) : `${kind} {\\"type\\":\\"error\\",\\"error\\":{\\"type\\":\\"api_error\\",\\"message\\":\\"Internal server error\\"}}`}","formatted":"API Error: ${kind} ${kind === 529 ? 'Overloaded' : 'Internal server error'}","status":${kind},"connection":null,"isNetworkDown":false}`;
      } else { // older shape
        error = kind === 'net'
          ? `{"cause":{"code":"${code}","path":"https://api.anthropic.com/v1/messages?beta=true","errno":0}}`
          : `{"status":${kind},"headers":{},"requestID":${rng.chance(0.5) ? `"${reqId(rng)}"` : 'null'},"error":{"type":"error","error":{"type":"${kind === 529 ? 'overloaded_error' : kind === 429 ? 'rate_limit_error' : 'api_error'}","message":"${kind === 529 ? 'Overloaded' : kind === 429 ? 'Rate limited' : 'Service Unavailable'}"}},"type":"api_error"}`;
      }
      m.t += rng.int(300, kind === 'net' ? 12000 : 3000);
      m.chain(`"type":"system","subtype":"api_error","level":"error","error":${error},"retryInMs":${retryIn},"retryAttempt":${k},"maxRetries":10`, '', [0, 5]);
      m.t += Math.round(Number(retryIn));
      stats.retries++;
    }
    stats.retrySequences++;
    if (!terminal) return false;
    const [err, status, text] = kind === 429 ? ['rate_limit', 429, `API Error: ${RATE_LIMIT(rng)}`]
      : kind === 'net' ? ['unknown', 'null', 'API Error: Connection error.']
        : ['server_error', kind, kind === 529 ? `API Error: ${OVERLOADED(rng)}` : `API Error: ${kind} Internal server error`];
    m.synthetic(err, status, text);
    stats.terminalErrors++;
    return true;
  }

  snapshot(messageId) {
    const { rng } = this;
    const m = this.main;
    const n = rng.int(0, 4);
    const backups = [];
    for (let i = 0; i < n; i++) backups.push(`"${this.g.pools.file()}":{"backupFileName":"${hex8(rng)}${hex8(rng)}@v${i + 1}","version":${i + 1},"backupTime":"${new Date(m.t).toISOString()}"}`);
    m.line(`{"type":"file-history-snapshot","messageId":"${messageId}","snapshot":{"messageId":"${messageId}","trackedFileBackups":{${backups.join(',')}},"timestamp":"${new Date(m.t + 3).toISOString()}"},"isSnapshotUpdate":${rng.chance(0.15) ? 'true' : 'false'}}`);
  }

  compact() {
    const { rng, g } = this;
    const m = this.main;
    const P = g.pools;
    const pre = m.ctx;
    const dir = this.subagentsDir();
    const summary = P.prose.take(rng, Math.round(rng.logUniform(2000, 9000)));
    const acId = `acompact-${hex8(rng)}${hex8(rng)}`;
    const ac = new Thread(this, path.join(dir, `agent-${acId}.jsonl`), { agentId: acId, model: m.model, t: m.t + 100 });
    ac.chain('"type":"user","message":{"role":"user","content":"Your task is to create a detailed summary of the conversation so far, paying close attention to the user\'s explicit requests and your previous actions.\\nWrap your analysis in <analysis> tags, then give the summary in <summary> tags."}', '', [0, 0]);
    ac.ctx = pre;
    ac.response([`{"type":"text","text":"<analysis>\\n${P.prose.take(rng, 800)}\\n</analysis>\\n\\n<summary>\\n${summary}\\n</summary>"}`]);
    ac.close();
    m.t = Math.max(m.t, ac.t);
    const logical = m.last;
    m.last = null;
    m.chain(`"logicalParentUuid":"${logical}","type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","compactMetadata":{"trigger":"auto","preTokens":${pre}}`, '', [100, 2000]);
    m.chain(`"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\\n${summary}\\nPlease continue the conversation from where we left it off without asking the user any further questions."}`, ',"isVisibleInTranscriptOnly":true,"isCompactSummary":true', [5, 50]);
    m.ctx = rng.int(9000, 20000);
    g.stats.compactions++;
  }

  /** One user turn: prompt, steps until the final answer, turn_duration. */
  turn(last) {
    const { rng, g } = this;
    const m = this.main;
    const P = g.pools;
    const promptUuid = uuid(rng);
    m.t += rng.int(5_000, 900_000);
    this.snapshot(promptUuid);
    // the prompt line gets the uuid the snapshot named
    const ts = m.tick(2, 10);
    m.line(`{"parentUuid":${m.last ? `"${m.last}"` : 'null'},${m.env},"type":"user","message":{"role":"user","content":"${P.prose.take(rng, Math.round(rng.logUniform(30, 1500)))}"},"uuid":"${promptUuid}","timestamp":"${ts}","permissionMode":"default"}`);
    m.last = promptUuid;
    this.lastPrompt = promptUuid;
    const t0 = m.t;
    const steps = Math.round(rng.logUniform(1, 40));
    let queued = rng.chance(0.07) ? rng.int(0, steps) : -1;
    for (let i = 0; i < steps; i++) {
      if (m.ctx > COMPACT_AT) this.compact();
      if (this.retries()) return; // the request failed: the turn ends on the synthetic line
      if (i === queued) {
        m.line(`{"type":"queue-operation","operation":"enqueue","timestamp":"${m.tick(100, 5000)}","sessionId":"${this.id}","content":"${P.prose.take(rng, rng.int(20, 200))}"}`);
        queued = -2;
      }
      if (last && i === steps - 1 && rng.chance(0.35)) {
        this.task('neverReturned'); // the session ends with the agent still running
        this.ended = true;
        return;
      }
      if (rng.chance(0.025)) {
        const r = rng.next();
        const outcome = r < 0.8 ? 'completed' : r < 0.84 ? 'silent' : r < 0.865 ? 'errorBeforeAssistant' : r < 0.885 ? 'aborted' : 'background';
        if (this.task(outcome) === 'interrupted') return;
      } else {
        step(m, MAIN_TOOLS);
      }
      if (queued === -2) {
        m.line(`{"type":"queue-operation","operation":"remove","timestamp":"${m.tick(5, 100)}","sessionId":"${this.id}"}`);
        queued = -1;
      }
      this.deliver();
    }
    if (this.retries()) return;
    m.response([`{"type":"text","text":"${P.prose.take(rng, Math.round(rng.logUniform(80, 3000)))}"}`]);
    m.chain(`"type":"system","subtype":"turn_duration","durationMs":${m.t - t0 + rng.int(10, 90)}`, ',"isMeta":false', [10, 90]);
  }

  run() {
    const { rng, g } = this;
    fs.mkdirSync(this.dir, { recursive: true });
    this.main = new Thread(this, path.join(this.dir, `${this.id}.jsonl`), { model: rng.pick(MAIN_MODELS), t: this.startMs });
    const m = this.main;
    if (rng.chance(0.15)) m.line(`{"type":"summary","summary":"${g.pools.words(4, 9)}","leafUuid":"${uuid(rng)}"}`);
    const startChars = g.stats.chars;
    while (!this.ended) {
      const last = g.stats.chars - startChars > this.target * 0.97;
      this.turn(last);
      if (last) break;
    }
    this.deliver(true);
    if (this.lastPrompt) m.line(`{"type":"last-prompt","lastPrompt":"${g.pools.words(4, 12)}","sessionId":"${this.id}"}`);
    m.close();
  }
}

function sessionSizes(rng, total) {
  const sizes = [];
  let sum = 0;
  while (sum < total) {
    const s = rng.logUniform(MIN_SESSION, MAX_SESSION);
    sizes.push(s);
    sum += s;
  }
  return sizes.map((s) => (s * total) / sum);
}

function generate({ out, size, seed }) {
  const rng = new Rng(seed);
  const stats = {
    files: 0, lines: 0, chars: 0, bytes: 0, responses: 0, toolUses: 0, toolResults: 0, toolErrors: 0, siblingCascades: 0,
    retries: 0, retrySequences: 0, terminalErrors: 0, compactions: 0, notifications: 0, subagents: 0,
    agents: { completed: 0, silent: 0, errorBeforeAssistant: 0, aborted: 0, neverReturned: 0, background: 0, notified: { completed: 0, failed: 0, killed: 0 } },
  };
  const g = { rng, stats, pools: buildPools(rng), projects: path.join(out, '.claude', 'projects') };
  fs.mkdirSync(g.projects, { recursive: true });
  const sizes = sessionSizes(rng, size);
  const starts = sizes.map(() => WINDOW_START + Math.floor(rng.next() * WINDOW_MS)).sort((a, b) => a - b);
  // Zipf-ish: a few projects hold most sessions.
  const weights = PROJECTS.map((_, i) => 1 / (i + 1));
  const wsum = weights.reduce((a, b) => a + b, 0);
  const pickProject = () => {
    let r = rng.next() * wsum;
    for (let i = 0; i < PROJECTS.length; i++) if ((r -= weights[i]) <= 0) return PROJECTS[i];
    return PROJECTS[0];
  };
  let planned = 0;
  for (let i = 0; i < sizes.length; i++) {
    // Steer each session by the bytes actually written so far, so the total lands near --size.
    const target = Math.max(64 * 1024, sizes[i] - (stats.bytes - planned));
    planned += sizes[i];
    new Session(g, { startMs: starts[i], target, project: pickProject() }).run();
  }
  return { sessions: sizes.length, stats };
}

// ───────────────────────── main ─────────────────────────
const { out, manifestPath } = freshOutput(args.out, args.force, fail);

const started = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
const { sessions, stats } = generate({ out, size: args.size, seed: args.seed });
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const cpu = process.cpuUsage(cpu0);
const cpuSeconds = { user: Number((cpu.user / 1e6).toFixed(2)), system: Number((cpu.system / 1e6).toFixed(2)) };
const projects = fs.readdirSync(path.join(out, '.claude', 'projects')).length;
const manifest = {
  generator: 'bench/gen-claude-home.mjs',
  home: out,
  size: args.size,
  seed: args.seed,
  files: stats.files,
  lines: stats.lines,
  bytes: stats.bytes,
  projects,
  sessions,
  subagents: stats.subagents,
  subagentOutcomes: stats.agents,
  retries: stats.retries,
  retrySequences: stats.retrySequences,
  terminalErrors: stats.terminalErrors,
  assistantResponses: stats.responses,
  toolUses: stats.toolUses,
  toolResults: stats.toolResults,
  toolRootErrors: stats.toolErrors,
  siblingCascades: stats.siblingCascades,
  compactions: stats.compactions,
  notifications: stats.notifications,
  generatedSeconds: Number(seconds.toFixed(2)),
  generatedCpuSeconds: cpuSeconds,
};
fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

if (!args.quiet) {
  const mib = stats.bytes / 2 ** 20;
  process.stdout.write(
    `generated ${out} (${formatSize(args.size)} asked, ${mib.toFixed(1)} MiB written, seed ${args.seed}) in ${seconds.toFixed(1)} s (${(mib / seconds).toFixed(0)} MiB/s; CPU ${cpuSeconds.user} s user + ${cpuSeconds.system} s system)\n` +
      `  ${sessions} sessions in ${projects} projects, ${stats.files} files, ${stats.lines} lines; ${stats.subagents} subagents ${JSON.stringify(stats.agents)}\n` +
      `  ${stats.retries} api_error records (${((100 * stats.retries) / stats.lines).toFixed(2)} % of lines) in ${stats.retrySequences} sequences, ${stats.terminalErrors} terminal errors, ${stats.compactions} compactions\n` +
      `  manifest: ${manifestPath}\n`,
  );
}
