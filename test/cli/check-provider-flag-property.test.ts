import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkJson } from '../checks/run-cli.js';
import { tempDir } from '../helpers/run-cli.js';

// The Anthropic SDK's realistic config, methods: ["stream"]: its params also have a `stream?: boolean`
// flag. With --types, the checker knows that flag cannot be called, so reading it takes no method
// off anything; without --types the site stays a finding (nothing tells the two apart).
const source = `interface Params { model: string; stream?: boolean }
interface Messages { stream(p: Params): AsyncIterable<string>; create(p: Params): Promise<string> }
interface Loose { stream?(p: Params): AsyncIterable<string>; other: unknown }
export function build(params: Params) {
  const { stream, ...rest } = params;
  return { ...rest, stream: params.stream ?? false, flag: stream };
}
export function call(m: Messages, p: Params) { return m.stream(p); }
export function keep(l: Loose) { const s = l.stream; return s; }
`;

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function tree(): string {
  const { dir, cleanup } = tempDir('trajaudit-flag-');
  cleanups.push(cleanup);
  mkdirSync(path.join(dir, 'src/agent'), { recursive: true });
  writeFileSync(path.join(dir, 'trajaudit.config.json'), JSON.stringify({ rules: { 'direct-provider-call': { methods: ['stream'] } } }));
  writeFileSync(path.join(dir, 'src/agent/a.ts'), source);
  return dir;
}

const sites = async (args: string[]) => (await checkJson([tree(), '--rule', 'direct-provider-call', ...args])).json.findings.map((f) => `${f.line} ${f.details?.form} ${f.resolution}`);

describe('direct-provider-call --types: a property that cannot be called is no method', () => {
  it('the boolean flag read or destructured is not reported; the call and an optional method taken off are', async () => {
    expect(await sites(['--types'])).toEqual(['8 call resolved', '9 reference resolved']);
  });

  it('without --types every site of the name is reported', async () => {
    expect(await sites([])).toEqual(['5 destructure syntactic', '6 reference syntactic', '8 call syntactic', '9 reference syntactic']);
  });
});
