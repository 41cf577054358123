// --since/--until skip whole files that cannot hold rows in the window, and never change a result.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

const HOME = path.join(FIXTURES, 'home');
const work = tempDir();
afterAll(() => work.cleanup());

describe('time windows', () => {
  it('--until skips sessions whose first record is after it; the rows in the window are the same', async () => {
    const db = path.join(work.dir, 'until.duckdb');
    const { value: windowed } = await runJson(['query', 'retry-telemetry', HOME, '--db', db, '--until', '2026-08-17']);
    const { value: loaded } = await runJson<{ path: string }[]>(['sql', `SELECT path FROM input_files WHERE kind IN ('events', 'errors', 'warn-log') ORDER BY path`, '--db', db]);
    // Week B's sessions (S4 from 2026-08-19, S5 from 2026-08-21) are not read at all.
    expect(loaded.map((r) => r.path)).toEqual([
      'trajectories/sessions/20260812-142207-8d3e61f0/events.jsonl',
      'trajectories/sessions/20260814-093015-c7a2e5f1/errors.jsonl',
      'trajectories/sessions/20260814-093015-c7a2e5f1/events.jsonl',
      // S5's warn.log opens with a continuation line, so its first time is unknown: read.
      'trajectories/sessions/20260821-101500-b2d84e07/warn.log',
      'trajectories/sessions/3b9f02d6/events.jsonl',
    ]);
    // The same query over a database holding every file gives the same rows.
    const full = path.join(work.dir, 'full.duckdb');
    await runJson(['load', HOME, '--db', full]);
    const { value: everything } = await runJson(['query', 'retry-telemetry', '--db', full, '--until', '2026-08-17']);
    expect(windowed).toEqual(everything);
    expect(windowed).toHaveLength(5);
  });

  it('--since skips files last written before it (with ten minutes of slack for hook times)', async () => {
    const home = path.join(work.dir, 'home');
    fs.cpSync(HOME, home, { recursive: true });
    const s1 = path.join(home, 'trajectories/sessions/3b9f02d6/events.jsonl');
    fs.utimesSync(s1, new Date('2026-08-10T02:16:00Z'), new Date('2026-08-10T02:16:00Z'));
    const db = path.join(work.dir, 'since.duckdb');
    await runJson(['query', 'retry-telemetry', home, '--db', db, '--since', '2026-08-10T02:30:00Z']);
    const { value: notLoaded } = await runJson<{ n: number }[]>(['sql', `SELECT count(*) AS n FROM input_files WHERE path LIKE '%3b9f02d6/events.jsonl'`, '--db', db]);
    expect(notLoaded).toEqual([{ n: 0 }]);
    const db2 = path.join(work.dir, 'since-slack.duckdb');
    await runJson(['query', 'retry-telemetry', home, '--db', db2, '--since', '2026-08-10T02:20:00Z']);
    const { value: loaded } = await runJson<{ n: number }[]>(['sql', `SELECT count(*) AS n FROM input_files WHERE path LIKE '%3b9f02d6/events.jsonl'`, '--db', db2]);
    expect(loaded).toEqual([{ n: 1 }]);
  });

  it('a --db the window left incomplete says so: the files are listed as skipped, queries without a window warn, load reads them', async () => {
    const db = path.join(work.dir, 'partial.duckdb');
    const windowed = await runCli(['query', 'retry-telemetry', HOME, '--db', db, '--until', '2026-08-17', '--format', 'json']);
    const unreadWarning = `trajaudit: 4 files were left unread in ${db} by a --since/--until window, so answers that reach outside that window miss their rows; \`trajaudit load\` of the same paths into it reads them (\`trajaudit sources --section skipped\` lists them)\n`;
    expect(windowed.stderr).toBe(`trajaudit: 4 lines in 4 files could not be read; they are listed by \`trajaudit sources\`\n${unreadWarning}`);
    const { value: skipped } = await runJson<{ path: string; reason: string }[]>(['sources', '--db', db, '--section', 'skipped', '--format', 'json']);
    const unread = skipped.filter((s) => s.reason.startsWith('outside the --since/--until window'));
    expect(unread.map((s) => s.path)).toEqual([
      'trajectories/sessions/20260819-183103-4f7a9c2e/events.jsonl',
      'trajectories/sessions/20260819-183103-4f7a9c2e/warn.log',
      'trajectories/sessions/20260821-101500-b2d84e07/errors.jsonl',
      'trajectories/sessions/20260821-101500-b2d84e07/events.jsonl',
    ]);
    // Later commands say so too, with a window of their own or without.
    for (const window of [[], ['--since', '2026-08-16']]) {
      const later = await runCli(['query', 'retry-telemetry', '--db', db, ...window, '--format', 'json']);
      expect(later.code).toBe(0);
      expect(later.stderr).toContain(unreadWarning);
    }
    expect((await runCli(['report', '--db', db, '--since', '2026-08-17', '--until', '2026-08-24'])).stderr).toContain(unreadWarning);
    await runJson(['load', HOME, '--db', db]);
    const after = await runCli(['query', 'retry-telemetry', '--db', db, '--format', 'json']);
    expect(after.stderr).not.toContain('left unread');
    const full = await runCli(['query', 'retry-telemetry', HOME, '--format', 'json']);
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(full.stdout));
  });

  it('a file named directly that a window left unread loses its skipped entry once it is read', async () => {
    const db = path.join(work.dir, 'one-file.duckdb');
    const file = path.join(HOME, 'trajectories/sessions/20260821-101500-b2d84e07/events.jsonl');
    await runCli(['query', 'subagent-starts', file, '--db', db, '--until', '2026-08-15']);
    const skipped = async () => (await runJson<{ reason: string }[]>(['sources', '--db', db, '--section', 'skipped', '--format', 'json'])).value.map((s) => s.reason.slice(0, 30));
    expect(await skipped()).toEqual(['outside the --since/--until wi']);
    await runJson(['load', file, '--db', db]);
    expect(await skipped()).toEqual([]);
    expect((await runCli(['query', 'subagent-starts', '--db', db])).stderr).not.toContain('left unread');
  });
});

describe('an mtime earlier than the file\'s own last record', () => {
  it('(a copy that reset every mtime, a file server whose clock is behind) is not trusted: --since reads the file', async () => {
    const home = path.join(work.dir, 'reset-mtimes');
    fs.cpSync(HOME, home, { recursive: true });
    const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    for (const file of files(home)) fs.utimesSync(file, new Date(1000), new Date(1000));
    const args = ['query', 'retry-telemetry', '--since', '2026-08-17', '--until', '2026-08-24'];
    const { value, run } = await runJson<unknown[]>([...args, home]);
    expect(run.code).toBe(0);
    expect(value).toEqual((await runJson<unknown[]>([...args, HOME])).value);
    expect(value.length).toBeGreaterThan(0);
  });
});

describe('a file whose first or last time cannot be told from its ends', () => {
  const RETRY = '{"event":"RetryTelemetry","session_id":"s1","timestamp":"2026-08-20T10:00:01.000Z","data":{"type":"retry","model":"m","attempt":1,"delayMs":10}}';
  const ONE_RETRY = [{ type: 'retry', events: 1, main_loop: 1, subagent: 0, sessions: 1, agents: 0 }];
  const windowed = (home: string, since: string, until: string) => runJson<unknown[]>(['query', 'retry-telemetry', home, '--since', since, '--until', until]);
  const session = (name: string, files: Record<string, string>, mtime?: Date) => {
    const dir = path.join(work.dir, name, 'trajectories', 'sessions', 's1');
    fs.mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      fs.writeFileSync(path.join(dir, file), text);
      if (mtime) fs.utimesSync(path.join(dir, file), mtime, mtime);
    }
    return path.join(work.dir, name);
  };
  const RESET = new Date('2026-08-01T00:00:00Z'); // a copy that reset the mtimes, before every record

  it('is read by --since when its last line is longer than the 8 KiB read from its end', async () => {
    const long = `{"event":"PostToolUse","session_id":"s1","timestamp":"2026-08-20T10:00:02.000Z","data":{"tool_response":"${'x'.repeat(9000)}"}}`;
    const home = session('long-last-line', { 'events.jsonl': `${RETRY}\n${long}\n` }, RESET);
    const { value, run } = await windowed(home, '2026-08-19', '2026-08-21');
    expect(run.code).toBe(0);
    expect(value).toEqual(ONE_RETRY);
  });

  it('is read by --since when its last line holds an older time nested in data, or a warn.log\'s last header is 8 KiB back', async () => {
    const nested = '{"event":"RetryTelemetry","session_id":"s1","timestamp":"2026-08-20T10:00:01.000Z","data":{"type":"retry","model":"m","ctx":{"timestamp":"2026-07-01T00:00:00.000Z"}}}';
    const warn = `[2026-08-20T10:00:00.000Z] [ERROR] [LLM:OPENAI] 429\n[2026-08-20T10:00:01.000Z] [WARN] [APP] long\n${`${'y'.repeat(100)}\n`.repeat(100)}`;
    const home = session('tail-without-time', { 'events.jsonl': `${nested}\n`, 'warn.log': warn }, RESET);
    const { value, run } = await windowed(home, '2026-08-20', '2026-08-21');
    expect(run.code).toBe(0);
    expect(value).toEqual(ONE_RETRY);
    const report = await runCli(['report', home, '--since', '2026-08-20', '--until', '2026-08-21']);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('| warn.log records | 2 | 0 | +2 |');
    expect(report.stdout).toContain('| events (events.jsonl) | 1 | 0 | +1 |');
  });

  it('is read by --until when its first time is one the load cannot read (30 April + 1 day, an expanded year)', async () => {
    for (const [name, first] of [['rolled-over', '2026-04-31T10:00:00.000Z'], ['expanded-year', '+012026-04-30T10:00:00.000Z']]) {
      const start = `{"event":"SessionStart","session_id":"s1","timestamp":"${first}","data":{}}`;
      const retry = RETRY.replace('2026-08-20T10:00:01.000Z', '2026-04-30T10:00:01.000Z');
      const home = session(name, { 'events.jsonl': `${start}\n${retry}\n` });
      const { value, run } = await windowed(home, '2026-04-30', '2026-05-01');
      expect(run.code).toBe(0);
      expect(value).toEqual(ONE_RETRY);
      expect(run.stderr).toMatch(/^trajaudit: 1 row has no readable time .*events\.jsonl:1;/);
    }
  });
});
