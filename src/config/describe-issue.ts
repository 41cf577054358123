// A JSON file's first schema problem, as one message part, for the config and the baseline alike.
import type { z } from 'zod';
import { jsonLine } from './json-line.js';

const at = (keys: PropertyKey[]) => keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('').replace(/^\./, '');

/** The line of `text` the issue is about: the unknown key's own, or the refused value's. */
export function issueLine(text: string, issue: z.core.$ZodIssue): number {
  return jsonLine(text, issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path);
}

/** What is wrong, where in the document; `spelling`: where the keys are listed, for an unknown one. */
export function describeIssue(issue: z.core.$ZodIssue, spelling: string): string {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => at([...issue.path, k]));
    return `unknown key ${keys.map((k) => `"${k}"`).join(', ')}; remove it or check the spelling (${spelling})`;
  }
  const where = issue.path.length ? `"${at(issue.path)}"` : 'top level';
  return `invalid value at ${where}: ${issue.message}`;
}
