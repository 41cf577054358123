import type { TrajauditConfig } from '../config/load-config.js';

/** Query parameters whose values come from trajaudit.config.json unless --param overrides them. */
export function configParams(config: TrajauditConfig): Record<string, string> {
  // One RE2 alternation: a file is test pollution when its whole content matches any pattern.
  return { test_pattern: config.tasks.testPatterns.map((p) => `(?:${p})`).join('|') };
}
