// Pools of realistic free text (mixed Chinese/English, code, quotes, newlines), built once per run
// and JSON-encoded once, so per-line generation is only string concatenation.
const ZH = [
  '请帮我检查', '重试路径', '子代理', '超时', '限流', '网关', '流式响应', '上下文压缩', '单元测试',
  '这个函数', '为什么会失败', '修复一下', '日志里', '看起来', '并发', '缓存命中率', '模型回退', '会话结束',
];
const EN = [
  'the retry funnel', 'fallback.ts', 'stream-lifecycle', 'rate limit', 'sub-agent', 'timeout', 'SSE stream',
  'please refactor', 'the failing test', 'packages/core/src/llm', 'idle_timeout', 'cooldown', 'token budget',
  'make sure', 'without breaking', 'the CI job', 'HTTP 429', 'error handling', 'the ledger', 'exit status',
];
const CODE = [
  'export async function retryWithBackoff(fn, { attempts = 3, delayMs = 500 } = {}) {',
  '  for (let i = 0; i < attempts; i++) {',
  '    try { return await fn(); } catch (err) { if (!isRetryable(err)) throw err; }',
  '    await sleep(delayMs * 2 ** i + Math.random() * 100);',
  '  }',
  '}',
  'const body = JSON.parse(text); // {"error":{"code":"limit_burst_rate"}}',
  '$ bun test packages/core/tests/agent/sub-agent.test.ts',
  '\tat Object.<anonymous> (/home/u/proj/src/app.ts:118:23)',
  'if (res.status === 429) { cooldown.note("rate_limit", retryAfterMs); }',
];

function sentence(rng) {
  const words = [];
  const n = rng.int(4, 14);
  for (let i = 0; i < n; i++) words.push(rng.chance(0.5) ? rng.pick(ZH) : rng.pick(EN));
  return `${words.join(' ')}${rng.pick(['。', '？', '.', '!', '：', '"quoted"', ' \\ backslash'])}`;
}

/** One prompt of roughly `chars` characters: paragraphs and an occasional fenced code block. */
function prompt(rng, chars) {
  let text = '';
  while (text.length < chars) {
    if (rng.chance(0.15)) {
      const lines = rng.int(3, 12);
      text += '\n```ts\n';
      for (let i = 0; i < lines; i++) text += `${rng.pick(CODE)}\n`;
      text += '```\n';
    } else {
      text += `${sentence(rng)}${rng.chance(0.3) ? '\n\n' : ' '}`;
    }
  }
  return text;
}

export function buildPools(rng) {
  const prompts = [];
  for (let i = 0; i < 64; i++) prompts.push(JSON.stringify(prompt(rng, Math.round(rng.logUniform(120, 24000)))));
  const descriptions = [];
  for (let i = 0; i < 32; i++) descriptions.push(JSON.stringify(sentence(rng).slice(0, 120)));
  const taskTexts = [];
  for (let i = 0; i < 32; i++) taskTexts.push(prompt(rng, rng.int(80, 1500)));
  const commands = [];
  for (let i = 0; i < 16; i++) commands.push(JSON.stringify(`${rng.pick(['rg -n', 'cat', 'ls -la', 'git diff', 'sed -n 1,80p'])} ${rng.pick(EN)}`.slice(0, 200)));
  return { prompts, descriptions, taskTexts, commands };
}
