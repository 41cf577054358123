// `trajaudit check`. The work is run-check.ts; when it uses the type checker it runs in a worker
// thread whose heap is bounded (check-in-worker.ts), so that TypeScript's checker running out of
// memory is a message, not V8's fatal error. The syntactic check, the CI guard's usual run, stays
// in this thread (a worker adds start-up time). This module loads neither TypeScript nor the rules.
import type { CommandResult } from '../command-result.js';
import { loadConfig } from '../config/load-config.js';
import type { CheckFormat } from '../render-check/index.js';

export interface CheckOptions {
  root: string;
  config?: string;
  baseline?: string;
  updateBaseline?: boolean;
  allowAdditions?: boolean;
  types?: boolean;
  rule?: string[];
  format?: CheckFormat;
  strict?: boolean;
}

/**
 * The config is read once, here (a config on a pipe, `--config /dev/stdin`, cannot be read twice).
 * The type checker runs for --types, or for direct-provider-call's receiverTypes (its needsTypes).
 * A config that cannot be read is run-check.ts's to report, in its order of checks.
 */
export async function check(options: CheckOptions): Promise<CommandResult> {
  const loading = loadConfig({ root: options.root, configPath: options.config });
  const config = await loading.catch(() => undefined);
  if (config && (options.types || config.rules['direct-provider-call'].receiverTypes.length > 0)) {
    return (await import('./check-in-worker.js')).checkInWorker(options, config);
  }
  return (await import('./run-check.js')).runCheck(options, loading);
}
