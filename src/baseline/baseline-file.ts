import { open, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { RawFinding } from '../checks/define-check.js';
import { describeIssue, issueLine } from '../config/describe-issue.js';
import { jsonLine } from '../config/json-line.js';
import { jsonProblem } from '../config/json-problem.js';
import { didYouMean } from '../did-you-mean.js';
import { InputError } from '../errors.js';
import { MAX_FILE_BYTES, readCappedText, TooLargeError } from '../read-capped-text.js';
import { entryKey, findingKey } from './fingerprint.js';
import type { BaselineEntry } from './types.js';

export const baselineFileName = 'trajaudit-baseline.json';

const entrySchema = z.strictObject({
  rule: z.string(),
  file: z.string(),
  scope: z.string(),
  anchor: z.string(),
  hash: z.string(),
  count: z.number().int().positive(),
});
const fileSchema = z.strictObject({ version: z.literal(1), entries: z.array(entrySchema) });

/** undefined when the file does not exist. `knownRules`: the rule ids an entry may name. */
export async function readBaseline(file: string, knownRules: readonly string[]): Promise<BaselineEntry[] | undefined> {
  let text: string;
  try {
    text = await readCappedText(file, MAX_FILE_BYTES);
  } catch (error) {
    if (error instanceof TooLargeError) throw new InputError(`baseline ${file} holds ${error.message}, which no baseline does (a device such as /dev/zero?); pass the baseline's JSON file`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(`cannot read baseline ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const problem = jsonProblem(text, error as Error);
    const where = `${file}:${problem.line}:${problem.column}`;
    throw new InputError(
      problem.conflict
        ? `${where}: baseline has unresolved merge conflicts; resolve them (keep the entries of both sides), or delete it and regenerate it with --update-baseline --allow-additions`
        : `${where}: baseline is not valid JSON (${problem.reason}); restore it from version control`,
    );
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(
      `${file}:${issueLine(text, issue)}: not a trajaudit baseline: ${describeIssue(issue, 'an entry holds rule, file, scope, anchor, hash and count')}; ` +
        'fix it, or delete the file and write it anew with trajaudit check --update-baseline --allow-additions',
    );
  }
  // An entry of no rule (a typo, a rule renamed since) would never match nor go stale, and
  // --update-baseline would keep it for good: refused as the schema's other errors are.
  const unknown = parsed.data.entries.findIndex((e) => !knownRules.includes(e.rule));
  if (unknown >= 0) {
    const { rule } = parsed.data.entries[unknown];
    throw new InputError(
      `${file}:${jsonLine(text, ['entries', unknown])}: entries[${unknown}] has "rule": ${JSON.stringify(rule)}, which is no trajaudit rule ` +
        `(${didYouMean(rule, knownRules)}known rules: ${knownRules.join(', ')}); fix its "rule", or remove the entry`,
    );
  }
  return parsed.data.entries;
}

/** Current findings grouped by key, each with its count. */
export function entriesFor(findings: RawFinding[]): BaselineEntry[] {
  const grouped = new Map<string, BaselineEntry>();
  for (const finding of findings) {
    const key = findingKey(finding);
    const entry = grouped.get(key);
    if (entry) entry.count++;
    else grouped.set(key, { rule: finding.rule, file: finding.file, scope: finding.scope, anchor: finding.anchor, hash: finding.textHash, count: 1 });
  }
  return [...grouped.values()];
}

/** Sorted, one entry per line, so that two branches' additions merge without conflicts. */
export function serializeBaseline(entries: BaselineEntry[]): string {
  const merged = new Map<string, BaselineEntry>();
  for (const entry of entries) {
    const key = entryKey(entry);
    const seen = merged.get(key);
    if (seen) seen.count += entry.count;
    else merged.set(key, { ...entry });
  }
  const sorted = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
  const lines = sorted.map((e) =>
    JSON.stringify({ rule: e.rule, file: e.file, scope: e.scope, anchor: e.anchor, hash: e.hash, count: e.count }),
  );
  return `{\n  "version": 1,\n  "entries": [\n${lines.map((line) => `    ${line}`).join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`;
}

/**
 * Written beside the file, then renamed over it: written in place, a full disk or a file-size limit
 * cut the committed baseline mid-entry and its old entries were lost. A link is followed, so the
 * file it names is the one replaced. Written without a byte order mark, whether the old file had one.
 */
export async function writeBaseline(file: string, entries: BaselineEntry[]): Promise<void> {
  const target = await realpath(file).catch(() => file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(serializeBaseline(entries));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw new InputError(`cannot write baseline ${file}: ${(error as Error).message}; the baseline is left as it was`);
  }
}
