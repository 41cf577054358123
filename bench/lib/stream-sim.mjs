// One LLM stream as the stream observer and the retry funnel record it (docs/formats.md#stream-observer-events):
// 429 retries with RetryTelemetry, the StreamPhase happy path, and occasional stalls/timeouts.
const COOLDOWN_ERR = '"shared cooldown: rate_limit from another path"';

/**
 * One LLM stream: 429 retries, then the happy path with optional stalls/timeouts.
 * `agent` is null for the main loop, else {streamId, caller}. Returns timings for AfterModel.
 */
export function simulateStream(sim, turn, agent) {
  const { rng, model, head } = sim;
  const index = agent ? (head ? 10000 + turn : turn) : turn;
  const agentPart = agent ? `,"agent_id":"${agent.streamId}"` : '';
  const agentIdTail = agent ? `,"agentId":"${agent.streamId}"` : '';
  const chunkTail = (n) => (head ? `,"chunk_count":${n},"chunk_count_kind":"events"` : '');
  const t0 = sim.t;
  let attempt = 1;
  const phase = (name, extras, explicitAttempt) => {
    const a = agent ? `,"attempt":${explicitAttempt ?? attempt}` : head ? `,"attempt":${attempt}` : '';
    const callerPart = agent ? `,"caller":"${agent.caller}"` : '';
    sim.ev('StreamPhase', `{"index":${index},"phase":"${name}"${agentPart}${a}${callerPart}${extras}}`);
  };
  while (rng.chance(agent ? 0.08 : 0.03) && attempt < 6) {
    phase('fetch_sent', `,"model":"${model}"`, attempt - 1);
    sim.tick(100, 1500);
    phase('error', `,"http_status":429,"model":"${model}"`);
    const delay = rng.int(1000, 9000);
    sim.retries++;
    const discarded = head ? ',"discardedChars":0,"discardedThinkingChars":0' : '';
    sim.ev('RetryTelemetry', `{"type":"retry","model":"${model}","attempt":${attempt},"delayMs":${delay},"error":"OpenAI API 错误: 429 limit_burst_rate","phase":"stream","reopenReason":"rate_limit"${discarded}${agentIdTail}}`);
    sim.warnLine('ERROR', sim.llmCategory, 'API 错误: 429 "{\\"error\\":{\\"code\\":\\"limit_burst_rate\\"}}"');
    sim.warnLine('WARN', 'AUDIT:API', `✗ OpenAI HTTP 429 model=${model} body={"error":{"code":"limit_burst_rate"}}`);
    if (rng.chance(0.3)) {
      sim.ev('RetryTelemetry', `{"type":"shared_cooldown_wait","model":"${model}","attempt":${attempt},"delayMs":${delay + 500},"remainingMs":${rng.int(100, 60000)},"error":"retry aligned to shared cooldown (slot ${rng.int(0, 4)})"${agentIdTail}}`);
    }
    if (head && rng.chance(0.15)) {
      const granted = rng.chance(0.5);
      sim.ev('RetryTelemetry', `{"type":"${granted ? 'cooldown_probe' : 'cooldown_probe_denied'}","model":"${model}","remainingMs":${rng.int(100, 30000)},"error":${COOLDOWN_ERR},"probeDecision":"${granted ? 'granted' : 'slot_taken'}"${agentIdTail}}`);
    }
    sim.t += delay;
    attempt++;
  }
  phase('fetch_sent', `,"model":"${model}"`, attempt - 1);
  const ttfb = rng.int(80, 2500);
  sim.t += ttfb;
  phase('headers_received', `,"http_status":200,"content_type":"text/event-stream","ttfb_ms":${ttfb},"model":"${model}"`);
  sim.ev('HttpConnected', `{"index":${index},"status":200,"content_type":"text/event-stream","ttfb_ms":${ttfb},"model":"${model}"}`);
  phase('sse_consuming', `,"model":"${model}"`);
  const ttft = ttfb + rng.int(100, 8000);
  sim.t += ttft - ttfb;
  phase('first_content', `,"ttft_ms":${ttft},"model":"${model}","cache_hit":true,"cache_read":${rng.int(0, 150000)}`);
  const chunks = rng.int(20, 4000);
  if (rng.chance(0.02)) stall(sim, index, agent, chunks, agentPart);
  sim.tick(500, 60000);
  const elapsed = sim.t - t0;
  phase('completed', `,"chunks":${chunks},"empty_chunks":${rng.int(0, 9)}${chunkTail(chunks)},"duration_ms":${elapsed}${agent ? `,"elapsed_ms":${elapsed}` : ''},"model":"${model}"`);
  sim.ev('RetryTelemetry', `{"type":"stream_completed","provider":"${sim.provider}","totalEvents":${chunks},"elapsedMs":${elapsed},"ttftMs":${ttft},"model":"${model}"${agentIdTail}${chunkTail(chunks)}}`);
  return { elapsed, ttft };
}

function stall(sim, index, agent, chunks, agentPart) {
  const { rng, model } = sim;
  const gap = rng.int(30000, 200000);
  sim.t += gap;
  sim.ev('RetryTelemetry', `{"type":"stream_stall","provider":"${sim.provider}","gapMs":${gap},"totalEvents":${chunks},"model":"${model}"${agent ? `,"agentId":"${agent.streamId}"` : ''}}`);
  if (!agent) sim.ev('StreamStall', `{"index":${index},"no_content_progress_ms":${gap},"total_chunks":${chunks},"empty_chunks":${rng.int(0, 40)}${sim.head ? `,"tier_ms":30000,"chunk_count":${chunks},"chunk_count_kind":"chunks"` : ''}}`);
  if (rng.chance(0.5)) {
    const layer = agent ? 'fallback_stream_timeout' : rng.pick(['idle_timeout', 'content_progress_timeout']);
    sim.ev('TimeoutFired', `{"index":${index},"layer":"${layer}"${agentPart},"threshold_ms":180000,"model":"${model}","chunks":${chunks},"empty_chunks":0,"elapsed_ms":${gap},"idle_ms":${gap}}`);
    sim.errorLine('stream', index, 'SSE 内容进展超时：180s 无有效内容', '{"kind":"timeout","willRetry":true,"attempt":1}');
    sim.warnLine('WARN', 'FALLBACK', '流式错误，准备重试: OpenAI 流内错误: Service is busy right now');
    if (!agent) sim.ev('TimeoutRetry', `{"index":${index},"attempt":1,"max":2,"elapsed_ms":${gap},"model":"${model}"}`);
    if (sim.head && !agent) sim.ev('StreamRestart', `{"index":${index},"loop_id":"loop-${rng.hex(6)}","reason":"${layer}","attempt":1,"discarded_blocks":${rng.int(0, 3)},"discarded_chars":${rng.int(0, 5000)},"discarded_thinking_chars":0,"discarded_tool_json_chars":0,"consumer":"main"}`);
  }
}
