import type { DiscoveredInputs } from '../discover/discover-inputs.js';
import { InputError } from '../errors.js';

/**
 * A file removed between discovery and its read (sid-code prunes old sessions as it runs): an
 * input error that names it, instead of the reader's own error. Anything else is returned as is.
 */
export function removedWhileRead(error: unknown, inputs: DiscoveredInputs): unknown {
  const node = error as NodeJS.ErrnoException;
  const duck = error instanceof Error ? /No files found that match the pattern "(.*)"/.exec(error.message) : null;
  // DuckDB names the path as it was given to it: glob characters escaped (literal-path.ts).
  const file = node?.code === 'ENOENT' ? node.path : duck?.[1].replace(/\[([*?[])\]/g, '$1');
  const named = file === undefined ? undefined : inputs.files.find((f) => f.absPath === file);
  if (named === undefined) return error;
  return new InputError(`${named.relPath} was removed while trajaudit was reading it; run the command again (a file that is gone is no longer read)`);
}
