import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editDatabase } from '../helpers/edit-database.js';
import { CLI, FIXTURES, runCli, runJson, tempDir } from '../helpers/run-cli.js';

describe('bad input: one line saying what, where and what to do; exit 2; no stack trace', () => {
  it('a missing path', async () => {
    const run = await runCli(['sources', 'no/such/home']);
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: path no/such/home does not exist; pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript\n' });
  });

  it('a named link that leads round in a loop, or to nothing: said so, not "does not exist"', async () => {
    const { dir, cleanup } = tempDir();
    try {
      fs.symlinkSync('b', path.join(dir, 'a'));
      fs.symlinkSync('a', path.join(dir, 'b'));
      fs.symlinkSync('gone-home', path.join(dir, 'latest'));
      expect(await runCli(['sources', 'a'], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: path a is a symbolic link that leads round in a loop; point it at a sid-code path, or pass that path\n' });
      expect(await runCli(['sources', 'latest'], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: path latest is a symbolic link to gone-home, which does not exist; point it at a sid-code path, or pass that path\n' });
    } finally {
      cleanup();
    }
  });

  it('a session dir whose only events.jsonl is a FIFO: its entry and why, not "no events.jsonl found"', async () => {
    const { dir, cleanup } = tempDir();
    try {
      fs.mkdirSync(path.join(dir, 's1'));
      expect(spawnSync('mkfifo', [path.join(dir, 's1/events.jsonl')]).status).toBe(0);
      expect(await runCli(['sources', 's1'], { cwd: dir })).toEqual({
        code: 2,
        stdout: '',
        stderr: 'trajaudit: s1 holds no file trajaudit reads (1 entry skipped, first events.jsonl: not a regular file (a FIFO, socket or device)); pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript\n',
      });
    } finally {
      cleanup();
    }
  });

  it('a directory that holds no sid-code data', async () => {
    const { dir, cleanup } = tempDir();
    fs.writeFileSync(path.join(dir, 'README.txt'), 'nothing here\n');
    try {
      const run = await runCli(['sources', dir]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`trajaudit: ${dir} holds no agent data (no sid-code events.jsonl, warn.log, errors.jsonl, usage-ledger.jsonl or tasks/*.output, no Claude Code transcript found); pass a sid-code home (~/.sid-code), a trajectories/sessions dir, a session dir, an events.jsonl file or a tasks dir, or a Claude Code dir (~/.claude, its projects dir, a project dir) or transcript\n`);
    } finally {
      cleanup();
    }
  });

  it('a --db inside the input tree, also through a link: refused before anything is written there', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const home = path.join(dir, 'home');
      fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
      fs.symlinkSync(home, path.join(dir, 'link'));
      const session = 'home/trajectories/sessions/20260821-101500-b2d84e07';
      // A link to a file not made yet inside the input: DuckDB would make the file where it leads.
      fs.symlinkSync(path.join(dir, session, 'new.db'), path.join(dir, 'dangling.db'));
      const before = fs.readdirSync(home, { recursive: true }).sort();
      for (const [command, db] of [['load', 'home/x.db'], ['load', `${session}/x.db`], ['load', 'link/x.db'], ['sql', 'home/x.db'], ['sources', 'link/trajectories/x.db'], ['load', 'dangling.db'], ['sources', 'dangling.db']]) {
        const run = await runCli(command === 'sql' ? ['sql', 'SELECT 1', 'home', '--db', db] : [command, 'home', '--db', db], { cwd: dir });
        expect(run).toEqual({
          code: 2,
          stdout: '',
          stderr: `trajaudit: --db ${db} is inside the input home, and trajaudit never writes inside the data it reads; pass a --db path outside home\n`,
        });
      }
      expect(fs.readdirSync(home, { recursive: true }).sort()).toEqual(before);
      // A session dir named alone: its home is not the input, so a --db there is taken.
      expect((await runCli(['load', session, '--db', 'home/x.db', '--quiet'], { cwd: dir })).code).toBe(0);
    } finally {
      cleanup();
    }
  });

  it('a --db written by trajaudit that cannot be opened for writing (immutable, or read-only for this user): permission, not "not a DuckDB database"', async (ctx) => {
    const { dir, cleanup } = tempDir();
    const db = path.join(dir, 'locked.db');
    expect((await runCli(['load', path.join(FIXTURES, 'malformed-lines'), '--db', db, '--quiet'])).code).toBe(0);
    // root is denied by the immutable flag (EPERM), any other user by the mode (EACCES).
    const root = process.getuid?.() === 0;
    const locked = root ? spawnSync('chattr', ['+i', db]).status === 0 : (fs.chmodSync(db, 0o444), true);
    try {
      if (!locked) ctx.skip();
      const run = await runCli(['load', path.join(FIXTURES, 'malformed-lines'), '--db', db]);
      expect(run).toEqual({ code: 2, stdout: '', stderr: `trajaudit: cannot open --db ${db}: permission denied; check the permissions of the file and of its directory (and that it is not immutable, lsattr)\n` });
      expect((await runCli(['sql', 'SELECT count(*) AS n FROM input_files', '--db', db, '--format', 'csv'])).stdout).toBe('n\r\n1\r\n');
    } finally {
      if (root) spawnSync('chattr', ['-i', db]);
      cleanup();
    }
  });

  it('a --db that is a FIFO: refused, where DuckDB would wait for a writer for ever', async () => {
    const { dir, cleanup } = tempDir();
    try {
      expect(spawnSync('mkfifo', [path.join(dir, 'pipe.db')]).status).toBe(0);
      for (const args of [['sql', 'SELECT 1'], ['load', path.join(FIXTURES, 'malformed-lines')]]) {
        const run = await runCli([...args, '--db', 'pipe.db'], { cwd: dir });
        expect(run).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: --db pipe.db is a FIFO, socket or device, not a file; pass a file name for the DuckDB database\n' });
      }
    } finally {
      cleanup();
    }
  });

  it('a --db that is not a DuckDB file', async () => {
    const { dir, cleanup } = tempDir();
    const bogus = path.join(dir, 'notes.duckdb');
    fs.writeFileSync(bogus, 'these are my notes, not a database\n');
    try {
      const run = await runCli(['load', path.join(FIXTURES, 'malformed-lines'), '--db', bogus]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^trajaudit: ${bogus} is not a DuckDB database trajaudit can open \\(.*\\); pass --db a new file name or a file written by \`trajaudit load\`\\n$`));
      expect(fs.readFileSync(bogus, 'utf8')).toBe('these are my notes, not a database\n');
    } finally {
      cleanup();
    }
  });

  it('a --db a load was killed in while DuckDB made it (empty, or its first header only): no data to a query, made anew by the next load', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const made = path.join(dir, 'made.duckdb');
      expect((await runCli(['load', path.join(FIXTURES, 'malformed-lines'), '--db', made, '--quiet'])).code).toBe(0);
      const firstHeader = fs.readFileSync(made).subarray(0, 4096);
      for (const [name, bytes] of [['empty.duckdb', Buffer.alloc(0)], ['header.duckdb', firstHeader]] as const) {
        const db = path.join(dir, name);
        fs.writeFileSync(db, bytes);
        expect(await runCli(['sql', 'SELECT 1', '--db', db])).toEqual({
          code: 2,
          stdout: '',
          stderr: `trajaudit: --db ${db} holds no trajaudit data (another DuckDB file, or a load into it stopped before its first commit); run: trajaudit load <paths> --db ${db}\n`,
        });
        expect(fs.readFileSync(db)).toEqual(bytes);
        expect((await runCli(['load', path.join(FIXTURES, 'malformed-lines'), '--db', db, '--quiet'])).code).toBe(0);
        expect(await runCli(['sql', 'SELECT count(*) AS n FROM events', '--db', db, '--format', 'csv'])).toEqual({ code: 0, stdout: 'n\r\n4\r\n', stderr: '' });
      }
    } finally {
      cleanup();
    }
  });

  // /proc/self/mem fails a read at offset 0 with EIO, as a failing disk does (Linux).
  it.runIf(fs.existsSync('/proc/self/mem'))('a file the disk fails to read (EIO): listed with its reason, the rest read, exit 2, not an internal error', async () => {
    const { dir, cleanup } = tempDir();
    try {
      fs.mkdirSync(path.join(dir, 's1'));
      fs.symlinkSync('/proc/self/mem', path.join(dir, 's1', 'events.jsonl'));
      fs.mkdirSync(path.join(dir, 's2'));
      fs.writeFileSync(path.join(dir, 's2', 'events.jsonl'), '{"event":"A","session_id":"s2","timestamp":"2026-08-20T10:00:01.000Z","data":{}}\n');
      fs.symlinkSync('/proc/self/mem', path.join(dir, 's2', 'warn.log'));
      const reason = 'cannot be read: input/output error (EIO); check the disk or network file system it is on';
      for (const [session, file, events] of [['s1', 'events.jsonl', 0], ['s2', 'warn.log', 1]] as const) {
        const warning = `trajaudit: 1 input could not be read, so answers leave it out: ${file}: input/output error (EIO); fix the cause and run again (\`trajaudit sources --section skipped\` lists it with what to do)\n`;
        const sql = await runCli(['sql', 'SELECT count(*) AS n FROM events', session, '--format', 'csv'], { cwd: dir });
        expect(sql).toEqual({ code: 2, stdout: `n\r\n${events}\r\n`, stderr: warning });
        const load = await runJson<Record<string, number>[]>(['load', session, '--db', path.join(dir, `${session}.duckdb`)], { cwd: dir });
        expect([load.run.code, load.run.stderr, load.value[0].files_in_db]).toEqual([2, warning, events]);
        const skipped = await runJson(['sources', session, '--section', 'skipped'], { cwd: dir });
        expect(skipped.value).toEqual([{ path: file, reason }]);
        expect(skipped.run.code).toBe(0);
      }
    } finally {
      cleanup();
    }
  });

  // The variable is set and is the cause: the message names it rather than advising to set it.
  it('no path and no default home', async () => {
    const run = await runCli(['sources'], { env: { SID_CONFIG_DIR: '/nonexistent/sid-home' } });
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: no input path given and SID_CONFIG_DIR=/nonexistent/sid-home does not exist; pass a path (e.g. a sid-code home), or set SID_CONFIG_DIR to one that exists\n' });
  });

  it('SID_CONFIG_DIR is the default home', async () => {
    const run = await runCli(['sql', 'SELECT count(*) AS n FROM events', '--format', 'csv'], { env: { SID_CONFIG_DIR: path.join(FIXTURES, 'malformed-lines') } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('n\r\n4\r\n');
  });

  it('an unknown flag and a bad SQL statement are usage errors', async () => {
    const flag = await runCli(['sources', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe("trajaudit: unknown option '--frobnicate'; run `trajaudit sources --help` for usage\n");
    // DuckDB's excerpt of the SQL and its caret stay, indented under trajaudit's line.
    const sql = await runCli(['sql', 'SELEC 1', path.join(FIXTURES, 'malformed-lines')]);
    expect(sql).toEqual({
      code: 2,
      stdout: '',
      stderr: 'trajaudit: the SQL statement failed: Parser Error: syntax error at or near "SELEC" (tables and views are listed in docs/tables.md, or run: trajaudit sql "SHOW TABLES")\n  LINE 1: SELEC 1\n          ^\n',
    });
  });

  it('--since that is not a time', async () => {
    const run = await runCli(['query', 'retry-telemetry', path.join(FIXTURES, 'malformed-lines'), '--since', 'last tuesday']);
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: --since "last tuesday" is not a time: use an ISO date or time (2026-08-17, 2026-08-17T10:00:00Z) or a span back from now (7d, 24h, 30m)\n' });
  });

  it('a reader that closes the pipe early (| head) stops the output quietly, exit 0', () => {
    const script = `"${process.execPath}" "${CLI}" sql "SELECT range AS n FROM range(300000)" "${path.join(FIXTURES, 'malformed-lines')}" --format csv --quiet | head -n 2; echo "exit \${PIPESTATUS[0]}"`;
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(run.stdout).toBe('n\r\n0\r\nexit 0\n');
    expect(run.stderr).toBe(''); // --quiet: no notice either
  });

  it('sql runs exactly one statement: none or several is a usage error', async () => {
    const home = path.join(FIXTURES, 'broken-documents');
    expect(await runCli(['sql', 'SELECT 1; SELECT 2', home])).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('trajaudit: the SQL text holds 2 statements; sql runs one at a time (one output), so pass them one by one\n') });
    expect(await runCli(['sql', '  ', home])).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('trajaudit: the SQL text holds no statement; pass one, e.g. trajaudit sql "SELECT count(*) FROM events"\n') });
  });

  it('control characters from the input are shown as escapes in tables, never sent to the terminal', async () => {
    const run = await runCli(['sql', `SELECT chr(27) || ']0;pwned' || chr(7) || chr(155) || 'x' AS s`, path.join(FIXTURES, 'broken-documents'), '--quiet']);
    expect(run.stdout).toContain('│ \\u001b]0;pwned\\u0007\\u009bx │');
    expect(run.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
    const md = await runCli(['sql', `SELECT chr(27) || '[2J' AS s, 'a' || chr(8238) || 'b' AS bidi, 9007199254740993::BIGINT AS n`, path.join(FIXTURES, 'broken-documents'), '--format', 'md']);
    expect(md.stdout).toBe('| s | bidi | n |\n| --- | --- | ---: |\n| \\u001b\\[2J | a\\u202eb | 9007199254740993 |\n');
  });

  it("another program's DuckDB file whose tables have trajaudit's names: refused by every command, left as it was", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const foreign = path.join(dir, 'other.duckdb');
      editDatabase(foreign, ['CREATE TABLE events (x INTEGER); CREATE VIEW input_files AS SELECT 1 AS a']);
      const size = fs.statSync(foreign).size;
      const message = (name: string) =>
        `trajaudit: --db ${foreign} is another program's DuckDB database: it has its own ${name}, where trajaudit keeps one of its tables, views or macros, and trajaudit never changes another program's tables; pass --db a new file\n`;
      for (const args of [['sql', 'SELECT 1', '--db', foreign], ['sources', '--db', foreign], ['load', path.join(FIXTURES, 'broken-documents'), '--db', foreign]]) {
        expect(await runCli(args)).toEqual({ code: 2, stdout: '', stderr: message('input_files') });
      }
      expect(fs.statSync(foreign).size).toBe(size);
      expect(fs.readdirSync(dir)).toEqual(['other.duckdb']);
    } finally {
      cleanup();
    }
  });

  it("another program's DuckDB file with a macro of trajaudit's name: refused, its macro left as it was", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const foreign = path.join(dir, 'other.duckdb');
      editDatabase(foreign, ['CREATE MACRO json_integer(x) AS x + 1']);
      const size = fs.statSync(foreign).size;
      expect(await runCli(['load', path.join(FIXTURES, 'broken-documents'), '--db', foreign])).toEqual({
        code: 2,
        stdout: '',
        stderr: `trajaudit: --db ${foreign} is another program's DuckDB database: it has its own json_integer, where trajaudit keeps one of its tables, views or macros, and trajaudit never changes another program's tables; pass --db a new file\n`,
      });
      expect(fs.statSync(foreign).size).toBe(size);
    } finally {
      cleanup();
    }
  });

  it('a --db in a directory that does not exist', async () => {
    const run = await runCli(['load', path.join(FIXTURES, 'broken-documents'), '--db', '/no/such/dir/audit.duckdb']);
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: --db /no/such/dir/audit.duckdb: directory /no/such/dir does not exist; create it, or pass a path in a directory that exists\n' });
  });
});
