/**
 * The message of a stack overflow; anything else is rethrown. The walks here are iterative, but
 * TypeScript's parser recurses: a file nested thousands deep (tsc cannot parse it either) is
 * named as not checked, and the run goes on with the others.
 */
export function stackOverflow(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) return error.message;
  throw error;
}
