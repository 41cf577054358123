import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'trajaudit-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

describe('loadConfig', () => {
  it('a missing default file means the documented defaults', async () => {
    const config = await loadConfig({ root: dir });
    expect(config.exclude).toEqual(['**/node_modules/**', '**/dist/**']);
    expect(config.rules['direct-provider-call']).toEqual({
      off: false,
      includeTests: false,
      methods: ['sendMessageStream'],
      allowedPaths: ['src/llm/**', 'packages/*/src/llm/**'],
      receiverTypes: [],
      allow: [],
    });
    expect(config.rules['stateful-construction'].classes).toEqual(['FileReadTracker', 'TodoWriteTool', 'JitContextManager']);
    expect(config.tasks.testPatterns).toEqual(['^\\[轮次 \\d+\\] (spawn )?测试响应\\n?$']);
    expect(new RegExp(config.tasks.testPatterns[0]).test('[轮次 3] spawn 测试响应\n')).toBe(true);
  });

  it('fills defaults under a partial rule', async () => {
    const file = write('partial.json', { rules: { 'dead-catch': { off: true } } });
    const config = await loadConfig({ root: dir, configPath: file });
    expect(config.rules['dead-catch']).toEqual({ off: true, includeTests: false });
    expect(config.rules['direct-provider-call'].methods).toEqual(['sendMessageStream']);
  });

  it('takes task patterns as text: RE2 judges them where they run (`check` never loads DuckDB)', async () => {
    const file = write('regex.json', { tasks: { testPatterns: ['(?i)^ok$', '(unclosed'] } });
    expect((await loadConfig({ root: dir, configPath: file })).tasks.testPatterns).toEqual(['(?i)^ok$', '(unclosed']);
    const number = write('regex-number.json', { tasks: { testPatterns: [1] } });
    await expect(loadConfig({ root: dir, configPath: number })).rejects.toThrow(`${number}:1: invalid value at "tasks.testPatterns[0]"`);
  });

  it('rejects unknown top-level keys and bad JSON', async () => {
    const unknown = write('unknown.json', { exclude: [], rulez: {} });
    await expect(loadConfig({ root: dir, configPath: unknown })).rejects.toThrow(`${unknown}:1: unknown key "rulez"`);
    const bad = write('bad.json', '{ "exclude": [ }');
    await expect(loadConfig({ root: dir, configPath: bad })).rejects.toThrow(`${bad}:1:16: not valid JSON (unexpected '}'); fix the file or pass another with --config`);
  });
});
