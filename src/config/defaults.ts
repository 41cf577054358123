import type { TrajauditConfig } from './schema.js';

/**
 * The config with every default applied, for runs without a config file: they then skip
 * importing zod, whose start-up cost matters for the CI guard. Kept equal to
 * `configSchema.parse({})` by test/unit/config/defaults.test.ts.
 */
export const DEFAULT_CONFIG: TrajauditConfig = {
  exclude: ['**/node_modules/**', '**/dist/**'],
  tests: ['**/*.test.*', '**/*.spec.*', '**/tests/**', '**/__tests__/**'],
  rules: {
    'direct-provider-call': {
      off: false,
      includeTests: false,
      methods: ['sendMessageStream'],
      allowedPaths: ['src/llm/**', 'packages/*/src/llm/**'],
      receiverTypes: [],
      allow: [],
    },
    'stateful-construction': {
      off: false,
      includeTests: false,
      classes: ['FileReadTracker', 'TodoWriteTool', 'JitContextManager'],
      factories: ['createStatefulTools'],
    },
    'dead-catch': { off: false, includeTests: false },
  },
  tasks: { testPatterns: ['^\\[轮次 \\d+\\] (spawn )?测试响应\\n?$'] },
};
