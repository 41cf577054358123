import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configSchema } from '../../../src/config/schema.js';

const committed = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../../trajaudit.schema.json'), 'utf8'));

describe('trajaudit.schema.json', () => {
  it('is generated from the zod schema (rerun `node scripts/gen-schema.mjs` after changing it)', () => {
    const { title: _t, description: _d, ...rest } = committed;
    expect(rest).toEqual(JSON.parse(JSON.stringify(z.toJSONSchema(configSchema, { io: 'input', target: 'draft-2020-12' }))));
  });

  it('rejects unknown keys and requires allow reasons, like the loader', () => {
    expect(committed.additionalProperties).toBe(false);
    const allowItems = committed.properties.rules.properties['direct-provider-call'].properties.allow.items;
    expect(allowItems.required).toEqual(['path', 'reason']);
    expect(Object.keys(committed.properties)).toEqual(['$schema', 'exclude', 'tests', 'rules', 'tasks']);
  });
});
