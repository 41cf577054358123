import { describe, expect, it } from 'vitest';
import { checkJson, runCli } from '../checks/run-cli.js';

// fixtures/check-provider-references: the method taken off its receiver without a call on the
// spot (references.ts, computed.ts; returned, stored through a cast or as a parameter's default:
// escapes.ts), rarer call spellings (rare-calls.ts), the omit-a-key idiom (omit-key.ts), destructuring that takes nothing off anything
// (declarations.ts), and uses that only look at it: guards, its properties, mocks (looks.ts).
const fixture = 'fixtures/check-provider-references';
const layer = 'bypass the resilience funnel (allowed only in src/llm/**, packages/*/src/llm/**)';
const takenOff = `error   new            direct-provider-call  sendMessageStream taken off its receiver: calls through it ${layer}`;
const called = 'error   new            direct-provider-call  direct call to sendMessageStream() bypasses the resilience funnel (allowed only in src/llm/**, packages/*/src/llm/**)';
const destructured = `error   new            direct-provider-call  sendMessageStream destructured from its receiver: calls through it ${layer}`;
const sites = async (args: string[]) =>
  (await checkJson([fixture, ...args])).json.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.details?.form} ${f.resolution}`);

describe('direct-provider-call: references and declarations', () => {
  it('reports a tagged template, a wrapped literal key, an alias, a return, a cast or default-parameter store, an assignment or computed-key destructuring, a comma callee and Reflect.apply; not types, signatures, declare, an omitted key, guards, callbacks, its properties or mocks', async () => {
    const run = await runCli(['check', fixture]);
    expect([run.code, run.stderr]).toEqual([1, '']);
    expect(run.stdout).toBe(
      [
        'src/agent/computed.ts',
        `  5:12     ${destructured}`, // const { ['sendMessageStream']: send } = p
        '',
        'src/agent/escapes.ts',
        `  8:12     ${takenOff}`, // return p.sendMessageStream
        `  11:44    ${takenOff}`, // (p) => p.sendMessageStream, not a callback
        `  14:18    ${takenOff}`, // const send = p.sendMessageStream as Send
        `  18:52    ${takenOff}`, // send = p.sendMessageStream (a parameter's default)
        `  23:57    ${takenOff}`, // private readonly send = p.sendMessageStream (a parameter property)
        '',
        'src/agent/omit-key.ts',
        `  15:11    ${destructured}`, // { sendMessageStream: send, ...settings } = p, then send.call(…); not the unused _omit above
        '',
        'src/agent/rare-calls.ts',
        `  6:31     ${called}`, // p.sendMessageStream`q`
        `  7:39     ${called}`, // p[('sendMessageStream')]('q')
        `  8:32     ${called}`, // p['sendMessageStream' as const]('q')
        '',
        'src/agent/references.ts',
        `  7:18     ${takenOff}`, // const send = p.sendMessageStream
        `  12:18    ${takenOff}`, // p['sendMessageStream']
        `  18:6     ${destructured}`, // ({ sendMessageStream: s2 } = p)
        `  24:6     ${destructured}`, // ({ sendMessageStream } = p)
        `  29:16    ${takenOff}`, // (0, p.sendMessageStream)('e')
        `  33:26    ${takenOff}`, // Reflect.apply(p.sendMessageStream, …)
        `  37:23    ${takenOff}`, // an unrelated class: syntax cannot tell
        '',
        '17 new, 0 baselined, 0 allowed, 0 info, 0 stale (9 files scanned, 9 parsed)',
        '',
      ].join('\n'),
    );
  });

  it('receiverTypes filters references as it filters calls', async () => {
    expect(await sites(['--config', `${fixture}/typed.config.json`])).toEqual([
      'src/agent/computed.ts:5:12 destructure resolved',
      'src/agent/escapes.ts:8:12 reference resolved',
      'src/agent/escapes.ts:11:44 reference resolved',
      'src/agent/escapes.ts:14:18 reference resolved',
      'src/agent/escapes.ts:18:52 reference resolved',
      'src/agent/escapes.ts:23:57 reference resolved',
      'src/agent/omit-key.ts:15:11 destructure resolved',
      'src/agent/rare-calls.ts:6:31 call resolved',
      'src/agent/rare-calls.ts:7:39 call resolved',
      'src/agent/rare-calls.ts:8:32 call resolved',
      'src/agent/references.ts:7:18 reference resolved',
      'src/agent/references.ts:12:18 reference resolved',
      'src/agent/references.ts:18:6 destructure resolved',
      'src/agent/references.ts:24:6 destructure resolved',
      'src/agent/references.ts:29:16 reference resolved',
      'src/agent/references.ts:33:26 reference resolved',
    ]);
  });
});
