// `check` with the type checker (--types, or a rule's receiverTypes), in a worker thread.
// TypeScript's checker can need more memory than the heap has on type-heavy code (one test file of
// deeply nested generic types took over 4 GB): in the main thread V8 then ends the process with a
// fatal error and a native stack trace. A worker with a heap limit is ended instead, and the run
// says what happened and what to do. Its stack is the main thread's, so that a file nested too
// deeply to parse is the same file with and without the type checker.
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { CommandResult } from '../command-result.js';
import { InputError, UsageError } from '../errors.js';
import type { TrajauditConfig } from '../config/schema.js';
import type { CheckOptions } from './check.js';

/** What the worker posts back: the command's result, or the error it threw. */
export type CheckWorkerMessage =
  | { result: CommandResult }
  | { error: { kind: 'usage' | 'input' | 'other'; message: string; stack?: string; code?: string } };

/** The last value node takes for a flag: NODE_OPTIONS first, then the command line's, which wins. */
function nodeFlag(name: string): number | undefined {
  const flags = [...(process.env.NODE_OPTIONS ?? '').split(/\s+/), ...process.execArgv];
  const pattern = new RegExp(`^--${name.replace(/-/g, '[-_]')}=(\\d+)$`);
  const values = flags.map((flag) => pattern.exec(flag)?.[1]).filter((value) => value !== undefined);
  return values.length > 0 ? Number(values.at(-1)) : undefined;
}

/**
 * The worker's heap limit: this process's own, so NODE_OPTIONS=--max-old-space-size sets both
 * (V8's heap_size_limit adds the young generation to the value set; 0 means V8's default).
 */
function heapLimitMb(): number {
  return nodeFlag('max-old-space-size') || Math.floor(v8.getHeapStatistics().heap_size_limit / 2 ** 20);
}

/**
 * The worker's stack: node gives a worker thread stackSizeMb less 192 KB for JavaScript, and the
 * main thread V8's --stack-size, 984 KB unless set (TypeScript's parser recursed ~780 parentheses
 * deep in the main thread, ~3,200 in a worker's default 4 MB).
 */
const STACK_SIZE_MB = ((nodeFlag('stack-size') || 984) + 192) / 1024;

/** The worker's error as it was thrown: a thrown value that was no Error stays one (cli.ts shows no stack for it). */
function rebuilt(error: Extract<CheckWorkerMessage, { error: unknown }>['error']): unknown {
  if (error.kind === 'usage') return new UsageError(error.message);
  if (error.kind === 'input') return new InputError(error.message);
  if (error.stack === undefined) return error.message;
  return Object.assign(new Error(error.message), { code: error.code, stack: error.stack });
}

export function checkInWorker(options: CheckOptions, config: TrajauditConfig): Promise<CommandResult> {
  const limit = heapLimitMb();
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (act: () => void) => {
      if (settled) return;
      settled = true;
      act();
    };
    const worker = new Worker(new URL('./check-worker.js', import.meta.url), { workerData: { options, config }, resourceLimits: { maxOldGenerationSizeMb: limit, stackSizeMb: STACK_SIZE_MB } });
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
