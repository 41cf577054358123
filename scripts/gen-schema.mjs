#!/usr/bin/env node
// Writes trajaudit.schema.json (for editors) from the same zod schema that validates the config.
// Run after a build: `node scripts/gen-schema.mjs`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { configSchema } from '../dist/config/schema.js';

export function configJsonSchema() {
  return {
    ...z.toJSONSchema(configSchema, { io: 'input', target: 'draft-2020-12' }),
    title: 'trajaudit.config.json',
    description: 'Configuration of trajaudit (static checks and queries). Every key is optional.',
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = new URL('../trajaudit.schema.json', import.meta.url);
  writeFileSync(out, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  process.stdout.write(`wrote ${fileURLToPath(out)}\n`);
}
