// `check` with the type checker (--types, or a rule's receiverTypes), in a worker thread. TypeScript's checker can need more memory than the heap has
// on type-heavy code (one test file of deeply nested generic types took over 4 GB): in the main
// thread V8 then ends the process with a fatal error and a native stack trace. A worker with a
// heap limit is ended instead, and the run says what happened and what to do.
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { CommandResult } from '../command-result.js';
import { InputError, UsageError } from '../errors.js';
import type { CheckOptions } from './check.js';

/** What the worker posts back: the command's result, or the error it threw. */
export type CheckWorkerMessage =
  | { result: CommandResult }
  | { error: { kind: 'usage' | 'input' | 'other'; message: string; stack?: string; code?: string } };

/**
 * The worker's heap limit: this process's own, so NODE_OPTIONS=--max-old-space-size sets both (as
 * set, the value V8's heap_size_limit reports adds the young generation to it).
 */
function heapLimitMb(): number {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const set = flags.map((flag) => /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(flag)?.[1]).filter((n) => n !== undefined).at(-1);
  return set === undefined ? Math.floor(v8.getHeapStatistics().heap_size_limit / 2 ** 20) : Number(set);
}

function rebuilt(error: Extract<CheckWorkerMessage, { error: unknown }>['error']): Error {
  if (error.kind === 'usage') return new UsageError(error.message);
  if (error.kind === 'input') return new InputError(error.message);
  const other = Object.assign(new Error(error.message), { code: error.code });
  if (error.stack) other.stack = error.stack;
  return other;
}

export function checkInWorker(options: CheckOptions): Promise<CommandResult> {
  const limit = heapLimitMb();
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (act: () => void) => {
      if (settled) return;
      settled = true;
      act();
    };
    const worker = new Worker(new URL('./check-worker.js', import.meta.url), { workerData: options, resourceLimits: { maxOldGenerationSizeMb: limit } });
    worker.on('message', (message: CheckWorkerMessage) =>
      settle(() => ('result' in message ? resolve(message.result) : reject(rebuilt(message.error)))),
    );
    worker.on('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new InputError(
                `check ran out of memory in TypeScript's type checker (--types, or a rule's receiverTypes): it needed more than the ${limit} MB JavaScript heap for the files under ${options.root}; ` +
                  `run check without the type checker, leave the type-heavy files out (the config's "exclude", or "includeTests": false for a rule that reads tests), ` +
                  `or raise the heap with NODE_OPTIONS=--max-old-space-size=<MB>`,
              )
            : error,
        ),
      ),
    );
    worker.on('exit', (code) => settle(() => reject(new Error(`the --types worker stopped (exit code ${code}) without a result`))));
  });
}
