import { afterEach, describe, expect, it } from 'vitest';
import { fileTree } from '../helpers/run-cli.js';
import { checkJson } from '../checks/run-cli.js';

// receiverTypes: the type program follows imports 2 levels from the checked files; a barrel
// (`export … from` only) costs no level, so a type reached through index.ts → public.ts resolves.
let cleanup = () => {};
afterEach(() => cleanup());

const tsconfig = JSON.stringify({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] },
});

function tree(files: Record<string, string>): string {
  const t = fileTree('trajaudit-receiver-barrels-', {
    'tsconfig.json': tsconfig,
    'trajaudit.config.json': JSON.stringify({ rules: { 'direct-provider-call': { receiverTypes: ['ModelClient'] } } }),
    'src/llm/model-client.ts': 'export interface ModelClient { sendMessageStream(q: string): AsyncGenerator<string>; }\n',
    'src/metrics/usage-meter.ts': '// An unrelated class with a method of the same name.\nexport class UsageMeter { sendMessageStream(topic: string): number { return topic.length; } }\n',
    ...files,
  });
  cleanup = t.cleanup;
  return t.dir;
}

const sites = async (dir: string) => (await checkJson([dir])).json.findings.map((f) => `${f.file}:${f.line} ${f.resolution}`);

describe('direct-provider-call receiverTypes through barrel files', () => {
  it('an unrelated class reached through two and three barrels is no finding; the configured type through them is, resolved', async () => {
    const dir = tree({
      'src/metrics/public.ts': "/* the public surface */\nexport * from './usage-meter.js';\n",
      'src/metrics/index.ts': "export * from './public.js';\n",
      'src/metrics/all.ts': "export type { UsageMeter } from './index.js';\n",
      'src/llm/public.ts': "export { type ModelClient } from './model-client.js';\n",
      'src/llm/index.ts': "export * from './public.js';\n",
      'src/services.ts':
        "import type { UsageMeter } from './metrics/index.js';\nimport type { UsageMeter as U3 } from './metrics/all.js';\nimport type { ModelClient } from './llm/index.js';\n" +
        'export interface Services { meter: UsageMeter; meter3: U3; client: ModelClient }\n',
      'src/agent/report.ts':
        "import type { Services } from '../services.js';\n" +
        "export function count(s: Services) { return s.meter.sendMessageStream('turns') + s.meter3.sendMessageStream('t'); }\n" +
        "export function turn(s: Services) { return s.client.sendMessageStream('q'); }\n",
    });
    expect(await sites(dir)).toEqual(['src/agent/report.ts:3 resolved']);
  });

  it('past the limit, through a file that is not a barrel: unresolved, and the message says why', async () => {
    const dir = tree({
      'src/metrics/alias.ts': "import { UsageMeter } from './usage-meter.js';\nexport type Meter = UsageMeter;\n",
      'src/metrics/deep.ts': "import type { Meter } from './alias.js';\nexport interface Deep { meter: Meter }\n",
      'src/services.ts': "import type { Deep } from './metrics/deep.js';\nexport interface Services { deep: Deep }\n",
      'src/agent/report.ts': "import type { Services } from '../services.js';\nexport const count = (s: Services) => s.deep.meter.sendMessageStream('t');\n",
    });
    const { json } = await checkJson([dir]);
    expect(json.findings.map((f) => `${f.file}:${f.line} ${f.resolution}`)).toEqual(['src/agent/report.ts:2 unresolved']);
    expect(json.findings[0].message).toContain(
      'the type checker could not resolve the receiver (for instance its type is any, or is reached through more than 2 imports from the checked files, ' +
        'not counting re-export-only files), so it may or may not be ModelClient',
    );
  });
});
