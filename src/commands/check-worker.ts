// The worker thread of a type-aware `check` (check-in-worker.ts): runs the command, posts what it gives.
import { parentPort, workerData } from 'node:worker_threads';
import { InputError, UsageError } from '../errors.js';
import type { TrajauditConfig } from '../config/schema.js';
import type { CheckOptions } from './check.js';
import { runCheck } from './run-check.js';
import type { CheckWorkerMessage } from './check-in-worker.js';

function described(error: unknown): Extract<CheckWorkerMessage, { error: unknown }>['error'] {
  const kind = error instanceof UsageError ? 'usage' : error instanceof InputError ? 'input' : 'other';
  if (!(error instanceof Error)) return { kind, message: String(error) };
  return { kind, message: error.message, stack: error.stack, code: (error as NodeJS.ErrnoException).code };
}

try {
  const { options, config } = workerData as { options: CheckOptions; config: TrajauditConfig };
  const result = await runCheck(options, config);
  parentPort!.postMessage({ result } satisfies CheckWorkerMessage);
} catch (error) {
  parentPort!.postMessage({ error: described(error) } satisfies CheckWorkerMessage);
}
