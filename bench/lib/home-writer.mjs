// Writes a whole synthetic sid-code home: sessions (via SessionSim), usage ledger, session index,
// tasks/ census material. Returns a manifest with the exact line counts the generator produced,
// which the ingest bench uses to cross-check every contender.
import fs from 'node:fs';
import path from 'node:path';
import { Rng } from './prng.mjs';
import { SessionSim } from './session-sim.mjs';
import { buildPools } from './text-pool.mjs';

const MIN_SESSION = 200 * 1024;
const MAX_SESSION = 40 * 1024 * 1024;
const WINDOW_START = Date.UTC(2026, 7, 1);
const WINDOW_MS = 21 * 24 * 3600 * 1000;
const MODELS = [
  ['glm-5.2', 'openai'],
  ['claude-sonnet-4-5', 'anthropic'],
  ['gpt-5.1', 'openai-responses'],
  ['kimi-k2', 'openai'],
];

/** Session sizes: log-uniform 200 KB–40 MB, scaled so they add up to exactly `total`. */
function sessionSizes(rng, total, count) {
  const sizes = [];
  let sum = 0;
  while (count ? sizes.length < count : sum < total) {
    const s = rng.logUniform(MIN_SESSION, MAX_SESSION);
    sizes.push(s);
    sum += s;
  }
  return sizes.map((s) => Math.max(1, Math.round((s * total) / sum)));
}

/** `YYYYMMDD-HHMMSS-<8hex>` in the writer's local time (UTC+8 here), docs/formats.md#session-ids. */
function sessionId(rng, startMs) {
  const d = new Date(startMs + 8 * 3600 * 1000).toISOString();
  return `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}-${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}-${rng.hex(8)}`;
}

class Tasks {
  constructor(dir, rng) {
    this.dir = dir;
    this.rng = rng;
    this.counts = { agent: 0, test: 0, empty: 0, shell: 0, workflow: 0 };
  }

  write(name, text) {
    fs.writeFileSync(path.join(this.dir, `${name}.output`), text);
  }

  /** Most sub-agent task files get evicted; processes that exit early leave theirs behind. */
  agentOutput(taskId, text) {
    if (!this.rng.chance(0.35)) return;
    this.counts.agent++;
    this.write(taskId, text);
  }

  /** The pre-2026-08-04 test pollution (docs/formats.md#task-outputs) plus empty and shell/workflow outputs. */
  pollution(scale) {
    const { rng } = this;
    const tests = Math.max(11, Math.round(300 * scale));
    for (let i = 0; i < tests; i++) {
      this.counts.test++;
      this.write(`a${rng.base36(8)}`, rng.chance(0.8) ? '[轮次 1] 测试响应\n' : '[轮次 1] spawn 测试响应\n');
    }
    for (let i = 0; i < Math.max(3, Math.round(16 * scale)); i++) {
      this.counts.empty++;
      this.write(`a${rng.base36(8)}`, '');
    }
    for (let i = 0; i < Math.max(2, Math.round(8 * scale)); i++) {
      this.counts.shell++;
      this.write(`s${rng.base36(8)}`, `$ npm test\n> vitest run\n ✓ test/a.test.ts (12 tests) ${rng.int(10, 900)}ms\n`.repeat(rng.int(1, 40)));
    }
    this.counts.workflow++;
    this.write(`w${rng.base36(8)}`, '[phase] build\n[log] compiling 41 files\n[phase] test\n[log] 120 passed\n');
  }
}

export function writeHome({ out, size, sessions: sessionCount, seed, badPerMiB }) {
  const rng = new Rng(seed);
  const pools = buildPools(rng);
  const sessionsDir = path.join(out, 'trajectories', 'sessions');
  const tasksDir = path.join(out, 'tasks');
  fs.mkdirSync(sessionsDir, { recursive: true });
  fs.mkdirSync(tasksDir, { recursive: true });
  const tasks = new Tasks(tasksDir, rng);
  const mib = 1024 * 1024;
  const badGap = badPerMiB > 0 ? mib / badPerMiB : Infinity;
  // Even a small home gets at least one malformed line, so bad-line reporting is always exercised.
  const corpus = {
    bytes: 0, lines: 0, valid: 0, blank: 0, truncatedTail: 0, malformed: {},
    badGap, nextBadAt: Math.min(rng.exp(badGap), size / 2), blankGap: badGap * 5, nextBlankAt: rng.exp(badGap * 5),
  };

  const sizes = sessionSizes(rng, size, sessionCount);
  const starts = sizes.map(() => WINDOW_START + Math.floor(rng.next() * WINDOW_MS)).sort((a, b) => a - b);
  const ledger = [];
  const index = [];
  let heads = 0;
  let crashed = 0;
  for (let i = 0; i < sizes.length; i++) {
    const sid = sessionId(rng, starts[i]);
    const dir = path.join(sessionsDir, sid);
    fs.mkdirSync(dir);
    const [model, provider] = rng.pick(MODELS);
    const sim = new SessionSim({
      rng, pools, corpus, dir, sid, startMs: starts[i], targetBytes: sizes[i], model, provider, tasks,
      head: rng.chance(0.7), crashed: rng.chance(0.1),
    });
    sim.start();
    heads += sim.head ? 1 : 0;
    crashed += sim.crashed ? 1 : 0;
    ledger.push(sim.ledgerRow());
    if (sim.head) index.push(`{"session_id":"${sid}","ts":${Math.floor(sim.t / 1000)},"model":"${model}","exit_status":"${sim.crashed ? 'incomplete' : 'end_turn'}","duration_ms":${sim.t - sim.t0},"turns":${sim.pairIndex},"total_steps":${sim.absTurn},"cost_usd":0.1,"tokens_sent":${sim.tokensIn},"tokens_received":${sim.tokensOut},"ttft_n":${sim.pairIndex},"e2e_n":${sim.pairIndex},"real_errors":0,"anomalies_count":0,"pathological":[],"compactions":0,"defense_triggered":0}`);
    if (sim.crashed) {
      fs.writeFileSync(path.join(dir, 'heartbeat.txt'), `{"ts":"${sim.ts()}","session_id":"${sid}","event_loop_lag_ms":1,"active_request":{"index":${sim.absTurn},"model":"${model}","phase":"sse_consuming","elapsed_ms":18982,"last_progress_ms":310,"chunks":402,"empty_chunks":0,"timeouts_fired":[]}}`);
    } else {
      fs.writeFileSync(path.join(dir, 'session-summary.json'), `${JSON.stringify({ session_id: sid, model, exit_status: 'end_turn', abnormal: false, duration_ms: sim.t - sim.t0, turns: sim.pairIndex, total_steps: sim.absTurn, real_errors: 0, anomalies_count: 0, has_subagent: sim.subagents > 0 }, null, 2)}\n`);
    }
    // Files trajaudit must step over (docs/formats.md#files-trajaudit-does-not-read).
    if (rng.chance(0.2)) fs.writeFileSync(path.join(dir, 'session.traj'), `{\n  "trajectory": [],\n  "history": [],\n  "info": {},\n  "metadata": {"total_api_calls": ${sim.pairIndex}}\n}\n`);
  }
  // A legacy append-era duplicate: the last row per sessionId wins (docs/formats.md#usage-ledgerjsonl).
  if (ledger.length > 0) ledger.splice(Math.floor(ledger.length / 2), 0, ledger[ledger.length - 1].replace(/"costUSD":[\d.]+/, '"costUSD":0.0001'));
  fs.writeFileSync(path.join(out, 'usage-ledger.jsonl'), `${ledger.join('\n')}\n`);
  fs.writeFileSync(path.join(out, 'session-index.jsonl'), index.length ? `${index.join('\n')}\n` : '');
  tasks.pollution(size / 1024 ** 3);

  const malformed = Object.values(corpus.malformed).reduce((a, b) => a + b, 0);
  return {
    generator: 'bench/gen-home.mjs',
    size, seed, badPerMiB, sessionsRequested: sessionCount ?? null,
    sessions: sizes.length, headSessions: heads, crashedSessions: crashed,
    events: {
      bytes: corpus.bytes, lines: corpus.lines, valid: corpus.valid, blank: corpus.blank,
      malformed: malformed + corpus.truncatedTail, malformedByKind: { ...corpus.malformed, 'truncated-tail': corpus.truncatedTail },
    },
    tasks: tasks.counts,
    ledgerRows: ledger.length,
  };
}
