import type { UncheckedEntry } from '../checks/discover.js';

/** What the run says of a file it could not check, after its name: why, and what to do. */
export function notCheckedText({ reason, detail, advice }: UncheckedEntry): string {
  return `not checked: ${reason}${detail ? ` (${detail})` : ''}; ${advice}`;
}
