import type { TrajauditConfig } from '../config/load-config.js';

/** The query parameters trajaudit.config.json sets (unless --param overrides them), each with its key there. */
export const CONFIG_PARAM_KEYS = { test_pattern: 'tasks.testPatterns' } as const;

/** Query parameters whose values come from trajaudit.config.json unless --param overrides them. */
export function configParams(config: TrajauditConfig): Record<keyof typeof CONFIG_PARAM_KEYS, string> {
  // One RE2 alternation: a file is test pollution when its whole content matches any pattern.
  return { test_pattern: config.tasks.testPatterns.map((p) => `(?:${p})`).join('|') };
}
