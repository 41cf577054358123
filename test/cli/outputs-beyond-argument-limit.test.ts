import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderLeakText } from '../../src/leak/render-text.js';
import { agentRows } from '../../src/timeline/filter-rows.js';
import type { MergedRow } from '../../src/timeline/timeline-rows.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

// V8 takes some 125,000 arguments in one call: `Math.max(...widths)` or `push(...lines)` over a
// list that long stopped the command with "Maximum call stack size exceeded" (exit 3). Each
// output below has 130,000 or more of what was spread.
const N = 130_000;
const work = tempDir();
afterAll(work.cleanup);
const tiny = path.join(work.dir, 'tiny');
fs.mkdirSync(path.join(tiny, 's1'), { recursive: true });
fs.writeFileSync(path.join(tiny, 's1/events.jsonl'), '{"event":"X","session_id":"s1","timestamp":"2026-08-17T10:00:00.000Z","data":{}}\n');

describe('outputs with more lines than a call takes arguments', () => {
  it('--format table: 130,000 rows, and one cell of 130,000 lines', async () => {
    const rows = await runCli(['sql', `SELECT range AS r FROM range(${N})`, tiny]);
    expect([rows.code, rows.stderr]).toEqual([0, '']);
    const lines = rows.stdout.split('\n');
    // A number column: right-aligned, its header too.
    expect(lines.slice(0, 4)).toEqual(['┌────────┐', '│      r │', '├────────┤', '│      0 │']);
    expect(lines.slice(-4)).toEqual(['│ 129999 │', '└────────┘', `(${N} rows)`, '']);
    expect(lines).toHaveLength(N + 6);

    const cell = await runCli(['sql', `SELECT repeat('ab' || chr(10), ${N}) || 'end' AS x`, tiny]);
    expect([cell.code, cell.stderr]).toEqual([0, '']);
    const cellLines = cell.stdout.split('\n');
    expect(cellLines.slice(0, 4)).toEqual(['┌─────┐', '│ x   │', '├─────┤', '│ ab  │']);
    expect(cellLines.slice(-4)).toEqual(['│ end │', '└─────┘', '(1 row)', '']);
    expect(cellLines).toHaveLength(N + 7);
  });

  it('--format table fitted to COLUMNS=80: a cell of 130,000 words, and one word of 400,000 characters, cut with …', async () => {
    const words = await runCli(['sql', `SELECT repeat('ab ', ${N}) AS x`, tiny], { env: { COLUMNS: '80' } });
    expect([words.code, words.stderr]).toEqual([0, '']);
    // Free text: one line, cut at a word with … (76 columns inside the frame: 25 words and …, padded).
    expect(words.stdout.split('\n').slice(3, -3)).toEqual([`│ ${Array(25).fill('ab').join(' ')}…  │`]);

    // A word with no space is text too once wider than an id could be; cut reading only its start.
    const long = 400_000;
    const word = await runCli(['sql', `SELECT repeat('a', ${long - 3}) || '👍🏽é' AS x`, tiny], { env: { COLUMNS: '80' } });
    expect([word.code, word.stderr]).toEqual([0, '']);
    expect(word.stdout.split('\n').slice(3, -3)).toEqual([`│ ${'a'.repeat(75)}… │`]);
  });

  it('a warn.log record continued after 130,000 blank lines keeps them in its message', async () => {
    const session = path.join(work.dir, 'warn', 's1');
    fs.mkdirSync(session, { recursive: true });
    fs.writeFileSync(path.join(session, 'warn.log'), `[2026-08-17T10:00:00.000Z] [WARN] [LLM] first\n${'\n'.repeat(N)}last\n`);
    const run = await runCli(['sql', "SELECT line, end_line, length(message) AS chars, message LIKE 'first%last' AS kept FROM warn_lines", path.dirname(session), '--format', 'json', '--quiet']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toEqual([{ line: 1, end_line: N + 2, chars: 'first'.length + N + 1 + 'last'.length, kept: true }]);
  });

  it('leak-check: a watched dir that gained 130,000 files lists each one', () => {
    // The report as diffSnapshots gives it (a CLI run spends 15 s writing and hashing the files).
    const added = Array.from({ length: N }, (_, i) => ({ path: `f${i}.output`, bytes: 0 }));
    const none = { exists: true, files: 0, bytes: 0 };
    const text = renderLeakText({
      command: ['agent'], exitCode: 1, commandExitCode: 0, signal: null,
      watched: [{ dir: 'tasks', created: false, notDirectory: null, leaked: true, before: none, after: { ...none, files: N }, added, changed: [], unreadable: [], removed: [], allowed: [] }],
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe(`tasks: before 0 files, 0 bytes; after ${N} files, 0 bytes`);
    expect(lines.filter((line) => line.startsWith('  added    '))).toHaveLength(N);
    expect(lines.at(-2)).toBe('leak-check: leaked: 130000 added, 0 changed outside --allow in 1 of 1 watched dir');
  });

  it('check --format md: an inventory of 130,000 constructions of one class', async () => {
    const root = path.join(work.dir, 'check');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/many.ts'), `declare class FileReadTracker {}\nexport function build() {\n${'  new FileReadTracker();\n'.repeat(N)}}\n`);
    const run = await runCli(['check', root, '--format', 'md']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain(`#### FileReadTracker (${N} sites)`);
    expect(run.stdout.split('\n').filter((line) => line.startsWith('| function | build | src/many.ts:'))).toHaveLength(N);
  }, 120_000);

  it('timeline --agent: a subagent of 130,000 rows with neither Start nor Stop spans its first to last row', () => {
    const tagged = { agent: 'subagent-task-a0z6h3j8d', taskId: 'a0z6h3j8d' };
    const at = (ms: number) => new Date(Date.UTC(2026, 8, 1) + ms).toISOString();
    const rows: MergedRow[] = Array.from({ length: N }, (_, i) => ({
      ts: at(i + 1), source: 'events', file: 'e', line: i + 1, event: 'StreamPhase', agent: tagged.agent, taskId: tagged.taskId,
      index: 10001, data: null, message: null,
    }));
    const untagged = (ms: number, line: number): MergedRow => ({ ...rows[0], ts: at(ms), line, agent: null, taskId: null });
    const picked = agentRows([untagged(0, 0), ...rows, untagged(N, N + 1), untagged(N + 1, N + 2)], 'a0z6h3j8d', 's');
    expect(picked).toHaveLength(N + 1);
    expect(picked.at(-1)?.line).toBe(N + 1);
  });
});
