import { z } from 'zod';

// Key names are part of the contract (issue 4, item 2): every key optional, defaults fit sid-code.
const glob = z.string().min(1);

const allowEntry = z.strictObject({
  path: glob.describe('glob (relative to the root) of files where the call is a deliberate exception'),
  reason: z
    .string({ error: 'an allow entry needs a "reason" (why the exception is deliberate)' })
    .trim()
    .min(1, 'an allow entry needs a non-empty "reason"').describe('why the exception is deliberate'),
});

const ruleBase = {
  off: z.boolean().default(false).describe('turn the rule off'),
  includeTests: z.boolean().default(false).describe('also scan test files'),
};

const directProviderCall = z
  .strictObject({
    ...ruleBase,
    methods: z.array(z.string().min(1)).default(['sendMessageStream']).describe('provider method names'),
    allowedPaths: z.array(glob).default(['src/llm/**', 'packages/*/src/llm/**']).describe('the resilience layer, where direct calls belong'),
    receiverTypes: z.array(z.string().min(1)).default([]).describe('class/interface names; non-empty implies the type checker'),
    allow: z.array(allowEntry).default([]).describe('deliberate exceptions, each with a reason'),
  })
  // A rule that can never fire is a CI guard that checks nothing while passing: say so instead.
  .refine((rule) => rule.off || rule.methods.length > 0, {
    path: ['methods'],
    message: 'names no method, so the rule could never report anything; list at least one, or turn the rule off with "off": true',
  })
  .prefault({});

const statefulConstruction = z
  .strictObject({
    ...ruleBase,
    classes: z.array(z.string().min(1)).default(['FileReadTracker', 'TodoWriteTool', 'JitContextManager']),
    factories: z.array(z.string().min(1)).default(['createStatefulTools']),
  })
  .refine((rule) => rule.off || rule.classes.length + rule.factories.length > 0, {
    path: ['classes'],
    message: 'no classes and no factories, so the rule could never report anything; list at least one, or turn the rule off with "off": true',
  })
  .prefault({});

const deadCatch = z.strictObject({ ...ruleBase }).prefault({});

export const configSchema = z.strictObject({
  $schema: z.string().optional().describe('path or URL of trajaudit.schema.json, for editors'),
  exclude: z.array(glob).default(['**/node_modules/**', '**/dist/**']).describe('files never scanned'),
  tests: z.array(glob).default(['**/*.test.*', '**/*.spec.*', '**/tests/**', '**/__tests__/**']).describe('test files'),
  rules: z
    .strictObject({
      'direct-provider-call': directProviderCall,
      'stateful-construction': statefulConstruction,
      'dead-catch': deadCatch,
    })
    .prefault({}),
  // Owned by the query half: task outputs whose prompt matches are test traffic, not real work.
  tasks: z
    .strictObject({
      // RE2, the dialect of DuckDB's regexp functions that run them. Checked there, by RE2 itself,
      // before any input is read (queries/check-patterns.ts): a JavaScript RegExp check refused
      // valid RE2 such as (?i) and let through what RE2 refuses (\1, lookaround), and `check`,
      // which loads this file too, must never load DuckDB.
      testPatterns: z
        .array(z.string())
        .default(['^\\[轮次 \\d+\\] (spawn )?测试响应\\n?$'])
        .describe('RE2 regular expressions (the syntax of DuckDB\'s regexp functions): a task output of at most 64 bytes whose whole content matches one is test pollution'),
    })
    .prefault({}),
});

export type TrajauditConfig = z.output<typeof configSchema>;
export type RuleId = keyof TrajauditConfig['rules'];
