import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTree } from '../helpers/run-cli.js';
import { runCli } from '../checks/run-cli.js';

// Code scanning rejects a log that breaks the SARIF 2.1.0 schema, and other consumers drop what
// they cannot read: the whole log of a run with every kind of finding and notification must conform.
let cleanup = () => {};
afterEach(() => cleanup());

/**
 * The SARIF 2.1.0 schema as the SARIF SDK publishes it (2.1.0-rtm.5, JSON Schema draft-04), from
 * the npm package that ships it as a file. Its toolComponent.language pattern has a stray `]` (the
 * OASIS copy has none), which only a RegExp without the `u` flag accepts; trajaudit writes no language.
 */
function sarifValidator() {
  const schemaFile = createRequire(import.meta.url).resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const ajv = new AjvDraft04.default({ allErrors: true, unicodeRegExp: false });
  ajvFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
}

const call = (n: number) => `declare const p: any;\nexport const f = () => p.sendMessageStream(${n});\n`;
// A construction in a class field (a warning) and one in a function (note: an info finding).
const trackers = 'export class FileReadTracker {}\nexport class Owner {\n  tracker = new FileReadTracker();\n}\nexport const perTask = () => new FileReadTracker();\n';

/**
 * A tree whose baseline records a call in kept.ts, one in fixed.ts (fixed since: a stale entry) and
 * the class-field construction; since then a new call, an allowed one, and a file whose name is not
 * UTF-8 (not checked: exit 2).
 */
async function everyKind(): Promise<string> {
  const t = fileTree('trajaudit-sarif-schema-', {
    'src/agent/kept.ts': call(1),
    'src/agent/fixed.ts': call(2),
    'src/tools/trackers.ts': trackers,
    'trajaudit.config.json': JSON.stringify({ rules: { 'direct-provider-call': { allow: [{ path: 'src/safety/**', reason: 'fails fast by design' }] } } }),
  });
  cleanup = t.cleanup;
  expect((await runCli(['check', '.', '--update-baseline', '--allow-additions'], { cwd: t.dir })).code).toBe(0);
  writeFileSync(path.join(t.dir, 'src/agent/fixed.ts'), 'export {};\n');
  writeFileSync(path.join(t.dir, 'src/agent/new.ts'), call(3));
  mkdirSync(path.join(t.dir, 'src/safety'));
  writeFileSync(path.join(t.dir, 'src/safety/classifier.ts'), call(4));
  writeFileSync(Buffer.concat([Buffer.from(`${t.dir}/src/b a`), Buffer.from([0xff]), Buffer.from('.ts')]), call(5));
  return t.dir;
}

describe('check --format sarif conforms to the SARIF 2.1.0 schema', () => {
  it('new, baselined, allowed and info results, stale and unchecked notifications, with and without --strict', async () => {
    const validate = sarifValidator();
    const dir = await everyKind();
    for (const strict of [[], ['--strict']]) {
      const run = await runCli(['check', '.', ...strict, '--format', 'sarif'], { cwd: dir });
      expect(run.code).toBe(2);
      const log = JSON.parse(run.stdout);
      const [sarifRun] = log.runs;
      // The log holds what it is meant to exercise: each state, each level, both notifications.
      expect(sarifRun.results.map((r: { level: string; properties: { state: string } }) => `${r.properties.state} ${r.level}`)).toEqual([
        'baselined error',
        'new error',
        'allowed error',
        'baselined warning',
        'info note',
      ]);
      expect(sarifRun.invocations[0].toolExecutionNotifications).toHaveLength(2);
      validate(log);
      expect(validate.errors ?? []).toEqual([]);
    }
  });

  it('the schema rejects what it should: a suppression of an unknown kind', () => {
    const validate = sarifValidator();
    const result = { ruleId: 'r', message: { text: 'm' }, suppressions: [{ kind: 'inConfig' }] };
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'trajaudit' } }, results: [result] }] })).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(['/runs/0/results/0/suppressions/0/kind']);
  });
});
