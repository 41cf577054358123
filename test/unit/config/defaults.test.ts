import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/config/defaults.js';
import { configSchema } from '../../../src/config/schema.js';

describe('DEFAULT_CONFIG', () => {
  it('is exactly what the schema gives an empty config', () => {
    expect(DEFAULT_CONFIG).toEqual(configSchema.parse({}));
  });
});
