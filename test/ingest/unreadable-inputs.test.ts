// A file or directory the file system refuses to read (permissions, a failing disk) is listed in
// the ledger with its reason and everything else loads; the command says so and exits 2, since
// its answer leaves it out. Before, the first such file stopped the whole command.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canDropRoot, isRoot, NOBODY, runAsUser } from '../helpers/as-user.js';
import { FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

const { dir, cleanup } = tempDir('trajaudit-unreadable-');
afterAll(cleanup);

const SESSION = 'trajectories/sessions/20260812-142207-8d3e61f0';
const EIO = 'cannot be read: input/output error (EIO); check the disk or network file system it is on';
const DENIED = 'cannot be read: permission denied; fix its permissions';

function home(name: string): string {
  const copy = path.join(dir, name);
  fs.cpSync(path.join(FIXTURES, 'home'), copy, { recursive: true });
  return copy;
}

type Skipped = { path: string; reason: string }[];
const unreadableOf = (skipped: Skipped) => skipped.filter((s) => s.reason.startsWith('cannot be read: '));

describe('an input that cannot be read', () => {
  // /proc/self/mem opens and fails every read at 0 with EIO, as a failing disk does; /proc/1/mem
  // cannot be opened (EACCES), by root either.
  it('is listed with its reason, the rest loads, exit 2; its rows from an earlier load stay; read again once it can be', async () => {
    const h = home('proc');
    const db = path.join(dir, 'proc.duckdb');
    expect((await runCli(['load', h, '--db', db, '--quiet'])).code).toBe(0);
    const before = await runJson<Record<string, unknown>[]>(['sql', `SELECT count(*) AS n FROM events JOIN input_files f USING (file_id) WHERE f.path = '${SESSION}/events.jsonl'`, '--db', db]);
    const events = fs.readFileSync(path.join(h, SESSION, 'events.jsonl'));
    fs.rmSync(path.join(h, SESSION, 'events.jsonl'));
    fs.symlinkSync('/proc/self/mem', path.join(h, SESSION, 'events.jsonl'));
    fs.symlinkSync('/proc/1/mem', path.join(h, 'tasks', 'mem.output'));

    const load = await runJson<Record<string, unknown>[]>(['load', h, '--db', db, '--quiet']);
    expect(load.run.code).toBe(2);
    expect(load.value[0]).toMatchObject({ files: 35, loaded: 0, unchanged: 35, files_in_db: 36 });
    const warning = `trajaudit: 2 inputs could not be read, so answers leave them out: tasks/mem.output: permission denied, ${SESSION}/events.jsonl: input/output error (EIO); fix the cause and run again (\`trajaudit sources --section skipped\` lists them with what to do)\n`;
    expect(load.run.stderr).toContain(warning);

    const skipped = await runJson<Skipped>(['sources', '--db', db, '--section', 'skipped']);
    expect(skipped.run.code).toBe(0);
    expect(unreadableOf(skipped.value)).toEqual([
      { path: 'tasks/mem.output', reason: DENIED },
      { path: `${SESSION}/events.jsonl`, reason: EIO },
    ]);
    expect((await runJson<Record<string, number>>(['sources', '--db', db, '--section', 'totals'])).value).toMatchObject({ unreadable: 2 });
    expect((await runCli(['sources', '--db', db, '--strict', '--section', 'totals'])).code).toBe(1);
    // The rows read before the file became unreadable are kept, and every answer says it is incomplete.
    const after = await runJson<Record<string, unknown>[]>(['sql', `SELECT count(*) AS n FROM events JOIN input_files f USING (file_id) WHERE f.path = '${SESSION}/events.jsonl'`, '--db', db]);
    expect(after.value).toEqual(before.value);
    expect(after.run.code).toBe(2);
    expect(after.run.stderr).toContain(warning);
    expect((await runCli(['query', 'retry-by-agent', '--db', db])).code).toBe(2);

    // Readable again: read, and the ledger no longer lists it.
    fs.rmSync(path.join(h, SESSION, 'events.jsonl'));
    fs.writeFileSync(path.join(h, SESSION, 'events.jsonl'), events);
    fs.rmSync(path.join(h, 'tasks', 'mem.output'));
    const fixed = await runCli(['load', h, '--db', db, '--quiet']);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).not.toContain('could not be read, so');
    expect(unreadableOf((await runJson<Skipped>(['sources', '--db', db, '--section', 'skipped'])).value)).toEqual([]);
  });

  it('without --db: the answer over the rest, the warning, exit 2', async () => {
    const h = home('memory');
    fs.symlinkSync('/proc/self/mem', path.join(h, 'tasks', 'bad.output'));
    const run = await runJson<Record<string, unknown>[]>(['query', 'test-pollution', h]);
    expect(run.run.code).toBe(2);
    expect(run.run.stderr).toContain('trajaudit: 1 input could not be read, so answers leave it out: tasks/bad.output: input/output error (EIO);');
    expect(run.value.length).toBeGreaterThan(0);
  });

  it.skipIf(!canDropRoot)('a file or directory of mode 000: listed as permission denied, the rest loaded, exit 2', () => {
    const h = home('modes');
    const db = path.join(dir, 'modes-db');
    fs.mkdirSync(db);
    fs.chmodSync(db, 0o777);
    fs.chmodSync(dir, 0o755);
    if (isRoot) for (const f of [h, ...(fs.readdirSync(h, { recursive: true }) as string[]).map((f) => path.join(h, f))]) fs.lchownSync(f, NOBODY, NOBODY);
    fs.chmodSync(path.join(h, 'usage-ledger.jsonl'), 0o000);
    fs.chmodSync(path.join(h, 'trajectories/sessions/20260814-093015-c7a2e5f1'), 0o000);
    const load = runAsUser(['load', h, '--db', path.join(db, 'x.duckdb'), '--format', 'json', '--quiet']);
    expect(load.code, load.stderr).toBe(2);
    expect(load.stderr).toContain('could not be read, so answers leave them out');
    expect(JSON.parse(load.stdout)[0].files).toBeGreaterThan(20);
    const skipped = runAsUser(['sources', '--db', path.join(db, 'x.duckdb'), '--section', 'skipped', '--format', 'json']);
    expect(unreadableOf(JSON.parse(skipped.stdout))).toEqual([
      { path: 'trajectories/sessions/20260814-093015-c7a2e5f1', reason: DENIED },
      { path: 'usage-ledger.jsonl', reason: DENIED },
    ]);
  });
});
