// Simulates one sid-code session (docs/formats.md) until its events.jsonl reaches a byte target.
// Lines are built from templates with the writer's key order; `corpus` is shared across sessions
// and decides where malformed lines and blank lines land.
import { SessionWriter } from './session-writer.mjs';
import { simulateStream } from './stream-sim.mjs';

const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'Glob', 'Write', 'TodoWrite', 'WebFetch'];
const AGENT_TYPES = ['explore', 'task', 'plan', 'verify', 'summarize'];

export class SessionSim extends SessionWriter {
  constructor({ rng, pools, corpus, dir, sid, startMs, targetBytes, head, crashed, model, provider, tasks }) {
    super({ rng, corpus, dir, sid, startMs });
    Object.assign(this, { pools, head, crashed, model, provider, tasks, targetBytes });
    this.cwd = `,"cwd":"/home/dev/${rng.pick(['proj', 'sid-code', 'webapp', 'infra'])}"`;
    this.pairIndex = 0;
    this.llmCategory = `LLM:${provider.toUpperCase()}`;
    this.absTurn = 0;
    this.promptSeq = 0;
    this.tokensIn = 0;
    this.tokensOut = 0;
    this.subagents = 0;
    this.retries = 0;
  }

  // ---- session shape -------------------------------------------------------------------------

  run() {
    const { rng } = this;
    this.ev('SessionStart', `{"source":"${rng.chance(0.9) ? 'startup' : 'resume'}","model":"${this.model}","permission_mode":"default"}`, true);
    if (rng.chance(0.3)) this.ev('GatewayPricingSync', `{"endpoint":"pricing","url":"https://gw.example.com/v1/pricing","outcome":"${rng.pick(['updated', 'unchanged', 'failed'])}","count":${rng.int(10, 80)},"version":"2026-08-${rng.int(10, 22)}","dropped":0,"reason":null}`);
    while (this.corpus.bytes - this.startBytes < this.targetBytes) this.prompt();
    if (this.crashed) return this.crash();
    this.ev('SessionEnd', `{"reason":"exit","exit_status":"${rng.chance(0.8) ? 'end_turn' : 'user_interrupt'}","sideCallStats":{"total":${rng.int(1, 9)},"succeeded":${rng.int(1, 9)},"failed":0,"timedOut":0,"byLabel":{"title":{"success":1,"failed":0}}}}`, true);
    // The digest's summary line is HEAD only (docs/formats.md#warnlog); the draw stays, so the rest of the home is the same.
    const high = rng.int(0, 3);
    if (this.head) this.warnLine('WARN', 'TRACE', `会话 ${this.sid} 检出 ${high} 条[高]级异常：subagent_execution_outcome。详情：bun scripts/trace-digest.ts ${this.sid}`);
  }

  start() {
    this.startBytes = this.corpus.bytes;
    this.run();
    this.close();
  }

  /** A killed writer: the last line stops mid-object with no newline (docs/formats.md#conventions). */
  crash() {
    const c = this.corpus;
    const full = `{"event":"StreamPhase","session_id":"${this.sid}","timestamp":"${this.ts()}","data":{"index":${this.absTurn},"phase":"sse_consuming","attempt":1,"model":"${this.model}"}}`;
    c.lines++;
    c.truncatedTail++;
    c.bytes += this.events.push(full.slice(0, this.rng.int(20, full.length - 5)));
  }

  prompt() {
    const { rng } = this;
    this.promptSeq++;
    this.tick(5000, 120000);
    this.ev('UserPromptSubmit', `{"prompt":${rng.pick(this.pools.prompts)}}`, true);
    const turns = rng.int(1, 14);
    for (let turn = 1; turn <= turns; turn++) this.mainTurn(turn, turn === turns);
    if (this.head) this.ev('TurnComplete', `{"turn":${turns},"absoluteTurn":${this.absTurn},"promptSeq":${this.promptSeq},"stop_reason":"end_turn","tool_calls_in_turn":${rng.int(0, 6)},"elapsed_ms_since_prompt":${rng.int(3000, 900000)},"had_hitl":false}`);
  }

  mainTurn(turn, last) {
    const { rng, model } = this;
    this.pairIndex++;
    this.absTurn++;
    const pair = this.pairIndex;
    this.ev('BeforeModel', `{"model":"${model}","index":${pair},"msg_count":${pair * 2 + 1}}`, true);
    if (pair > 1 && rng.chance(0.5)) {
      const broken = rng.chance(0.2);
      this.ev('prefix_break', `{"index":${pair},"broken":${broken}${broken ? `,"first_changed_kind":"system","first_changed_index":0,"wasted_ratio":0.${rng.int(10, 99)}` : ''},"prev_segments":${rng.int(3, 40)},"curr_segments":${rng.int(3, 40)},"common_prefix_chars":${rng.int(1000, 90000)},"prev_total_chars":${rng.int(1000, 90000)},"curr_total_chars":${rng.int(1000, 90000)},"char_wasted_ratio":0.${rng.int(0, 99)}}`);
    }
    if (rng.chance(0.1)) this.ev('jit_context', `{"source":"main","accessed_path":"src/llm/fallback.ts","hit":true,"loaded_count":1,"loaded":[{"path":"src/llm/AGENTS.md","bytes":${rng.int(200, 9000)},"reason":"ancestor","oversized":false}],"injected_bytes":${rng.int(200, 9000)},"cumulative_bytes":${rng.int(9000, 40000)},"scope_skipped":0,"failures":[],"elapsed_ms":${rng.int(1, 30)}}`);
    const { elapsed, ttft } = simulateStream(this, turn, null);
    const inTok = rng.int(8000, 180000);
    const outTok = rng.int(50, 6000);
    const cacheRead = Math.floor(inTok * rng.next());
    this.tokensIn += inTok;
    this.tokensOut += outTok;
    const stop = last ? 'end_turn' : 'tool_use';
    const types = last ? '["thinking","text"]' : '["thinking","text","tool_use"]';
    const gw = this.head ? `,"gateway_request_id":"req_${rng.hex(24)}","gateway_request_id_header":"x-request-id"` : '';
    this.ev('AfterModelRaw', `{"index":${pair},"model":"${model}","stop_reason":"${stop}","usage":{"input_tokens":${inTok},"output_tokens":${outTok},"cache_read":${cacheRead},"cache_creation":0},"content_types":${types},"elapsed_ms":${elapsed},"provider":"${this.provider}","base_url":"https://api.example.com/v1"${gw},"ttft_ms":${ttft},"context_used_tokens":${inTok},"context_window":200000,"context_usage_ratio":${(inTok / 200000).toFixed(3)}}`, true);
    this.ev('AfterModel', `{"stop_reason":"${stop}","usage":{"input_tokens":${inTok},"output_tokens":${outTok},"cache_read_input_tokens":${cacheRead},"cache_creation_input_tokens":0},"index":${pair},"elapsed_ms":${elapsed},"ttft_ms":${rng.chance(0.05) ? 'null' : ttft},"content_types":${types}}`, true);
    if (rng.chance(0.003)) this.turnError(pair);
    if (last) return;
    if (rng.chance(0.06)) this.subagentBatch(turn);
    const tools = rng.int(1, 4);
    for (let i = 0; i < tools; i++) this.toolCall();
    this.ev('LoopTransition', `{"type":"tool_use","turn":${turn}}`);
    if (rng.chance(0.02)) this.ev('NoProgressNagInjected', `{"kind":"todo","turn":${turn},"absoluteTurn":${this.absTurn},"promptSeq":${this.promptSeq},"turnsSinceLastTodoWrite":${rng.int(3, 20)},"turnsSinceLastReminder":-1}`);
  }

  /** An engine-level failure: TurnError in events, an engine record in errors.jsonl, a multi-line warn. */
  turnError(pair) {
    const stack = 'TypeError: Cannot read properties of undefined (reading \'content\')\n    at normalizeResponse (packages/core/src/llm/openai.ts:412:18)\n    at queryLoop (packages/core/src/query/loop.ts:233:9)';
    this.ev('TurnError', `{"error":"Cannot read properties of undefined (reading 'content')","stack":${JSON.stringify(stack)},"turn":${pair}}`);
    this.errors.push(`{"event":"Error","timestamp":"${this.ts()}","session_id":"${this.sid}","data":{"phase":"engine","index":${pair},"error":"Cannot read properties of undefined (reading 'content')","stack":${JSON.stringify(stack)}}}\n`);
    this.warnLine('ERROR', 'APP', `queryLoop 异常: ${stack}`);
  }

  toolCall() {
    const { rng } = this;
    const tool = rng.pick(TOOLS);
    const id = `toolu_${rng.base36(22)}`;
    this.ev('PreToolUse', `{"tool_name":"${tool}","tool_use_id":"${id}"}`, true);
    this.tick(5, 4000);
    if (rng.chance(0.03)) this.ev('PostToolUseFailure', `{"tool_name":"${tool}","tool_use_id":"${id}","is_error":true}`, true);
    else this.ev('PostToolUse', `{"tool_name":"${tool}","tool_use_id":"${id}","is_error":${rng.chance(0.05)},"duration_ms":${rng.int(2, 9000)}}`, true);
  }

  /** 1–3 sub-agents dispatched together; their events interleave turn by turn. */
  subagentBatch() {
    const { rng } = this;
    const n = rng.chance(0.4) ? rng.int(2, 3) : 1;
    const agents = [];
    for (let i = 0; i < n; i++) {
      const type = rng.pick(AGENT_TYPES);
      const taskId = `a${rng.base36(8)}`;
      const a = { type, taskId, id: `subagent-${type}-${taskId}`, streamId: `${this.sid}-sub-${taskId}`, caller: 'sub-agent', turns: rng.int(1, 8), done: 0, tokensIn: 0, tokensOut: 0, t0: this.t, failed: false, text: [] };
      agents.push(a);
      this.subagents++;
      this.ev('SubagentStart', `{"agent_id":"${a.id}","agent_type":"${type}","description":${rng.chance(0.9) ? rng.pick(this.pools.descriptions) : 'null'}}`, true);
    }
    let live = agents.length;
    while (live > 0) {
      for (const a of agents) {
        if (a.done >= a.turns || a.failed) continue;
        a.done++;
        if (rng.chance(0.015)) {
          // The incident pattern: a 429 and the sub-agent dies 1 ms later with zero retries.
          this.ev('StreamPhase', `{"index":${this.head ? 10000 + a.done : a.done},"phase":"error","agent_id":"${a.streamId}","attempt":0,"caller":"sub-agent","http_status":429,"model":"${this.model}","error":"429 limit_burst_rate"}`);
          this.warnLine('ERROR', 'AGENT_LOOP', 'LLM 错误: LLM 错误: OpenAI API 错误: 429 {"error":{"code":"limit_burst_rate"}}');
          a.failed = true;
        } else {
          simulateStream(this, a.done, a);
          a.tokensIn += rng.int(5000, 60000);
          a.tokensOut += rng.int(50, 3000);
          if (rng.chance(0.7)) this.toolCall();
          a.text.push(`[轮次 ${a.done}] ${rng.pick(this.pools.taskTexts)}\n`);
        }
        if (a.done >= a.turns || a.failed) live--;
      }
    }
    for (const a of agents) {
      this.ev('SubagentStop', `{"agent_id":"${a.id}","agent_type":"${a.type}","elapsed_ms":${this.t - a.t0},"output_tokens":${a.tokensOut},"input_tokens":${a.tokensIn},"turns":${a.done},"status":"${a.failed ? 'error' : 'completed'}"}`, true);
      this.tasks.agentOutput(a.taskId, a.text.join(''));
    }
  }

  // ---- per-session side files -----------------------------------------------------------------

  ledgerRow() {
    const cost = (this.tokensIn * 0.0000006 + this.tokensOut * 0.0000022).toFixed(4);
    const tail = this.head ? `,"appVersion":"0.1.${this.rng.int(560, 620)}","peakRatio":${this.rng.next().toFixed(2)}` : '';
    const hit = Math.floor(this.tokensIn * 0.6);
    return `{"ts":${Math.floor(this.t / 1000)},"sessionId":"${this.sid}","model":"${this.model}","provider":"${this.provider}","promptTotal":${this.tokensIn},"cacheHit":${hit},"cacheWrite":0,"uncachedInput":${this.tokensIn - hit},"output":${this.tokensOut},"costUSD":${cost},"savingsUSD":${(cost * 0.3).toFixed(4)},"durationMs":${this.t - this.t0},"endpointHost":"api.example.com"${tail}}`;
  }
}
