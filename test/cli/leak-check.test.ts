import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const cli = path.resolve(import.meta.dirname, '../../dist/cli.js');
let root: string;
let watched: string;

function leakCheck(args: string[], script: string, env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [cli, 'leak-check', ...args, '--', process.execPath, '-e', script], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', TZ: 'UTC', ...env },
    encoding: 'utf8',
  });
  return { stdout: result.stdout, stderr: result.stderr, code: result.status };
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'trajaudit-leak-'));
  watched = path.join(root, 'home');
  mkdirSync(path.join(watched, 'tasks'), { recursive: true });
  writeFileSync(path.join(watched, 'tasks', 'a.output'), 'keep me\n');
  writeFileSync(path.join(watched, 'old.txt'), 'old');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('trajaudit leak-check', () => {
  it('passes a clean command, with its stdout passed through before the report', () => {
    const r = leakCheck(['--watch', 'home'], 'console.log("hello from the child")');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'hello from the child\n' +
        'home: before 2 files, 11 bytes; after 2 files, 11 bytes\n' +
        'leak-check: clean: nothing added or changed outside --allow in 1 watched dir\n',
    });
  });

  it('watches the directory a --watch link points to', () => {
    symlinkSync('home', path.join(root, 'linked'));
    const r = leakCheck(['--watch', 'linked'], 'require("fs").writeFileSync("home/new.txt", "x")');
    expect(r).toEqual({
      code: 1,
      stderr: '',
      stdout: 'linked: before 2 files, 11 bytes; after 3 files, 12 bytes\n  added    new.txt (1 byte)\n' +
        'leak-check: leaked: 1 added, 0 changed outside --allow in 1 of 1 watched dir\n',
    });
  });

  it('without --watch is a usage error, not a pass', () => {
    expect(leakCheck([], 'require("fs").writeFileSync("home/new.txt", "x")')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'trajaudit: leak-check: no --watch DIR given; name each directory the command must leave as it was, e.g. --watch ~/.sid-code/tasks\n',
    });
  });

  it('fails a command that leaves a file behind and lists it', () => {
    const r = leakCheck(['--watch', 'home'], 'require("fs").writeFileSync("home/tasks/leak.output", "[轮次 1] 测试响应")');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'home: before 2 files, 11 bytes; after 3 files, 34 bytes\n' +
        '  added    tasks/leak.output (23 bytes)\n' +
        'leak-check: leaked: 1 added, 0 changed outside --allow in 1 of 1 watched dir\n',
    );
  });

  it('sees a rewrite that keeps the size and the mtime', () => {
    const file = path.join(watched, 'old.txt');
    utimesSync(file, 1_700_000_000, 1_700_000_000); // whole seconds: the child can restore it exactly
    const script = 'const fs = require("fs"); fs.writeFileSync("home/old.txt", "new"); fs.utimesSync("home/old.txt", 1700000000, 1700000000)';
    const r = leakCheck(['--watch', 'home'], script);
    expect(statSync(file).mtimeMs).toBe(1_700_000_000_000);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  changed  old.txt (3 → 3 bytes)\n');
  });

  it("passes on the command's own failure code, even when it also leaked", () => {
    const r = leakCheck(['--watch', 'home'], 'require("fs").writeFileSync("home/x", ""); process.exit(3)');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('  added    x (0 bytes)\n');
    expect(r.stdout).toMatch(/^leak-check: command failed: .* exited 3; leaked: 1 added/m);
  });

  it('reports a signal death as 128 + the signal number', () => {
    const r = leakCheck(['--watch', 'home'], 'process.kill(process.pid, "SIGTERM")');
    expect(r.code).toBe(143);
    expect(r.stdout).toMatch(/was killed by SIGTERM; clean/);
  });

  it('passes a SIGTERM aimed at it to every process the command started, not to the command alone', async () => {
    // The shell dies of the signal; its background job, a writer still sleeping, must not
    // outlive it and write into the watched dir after the report was taken.
    const command = `(sleep 2; echo late > home/late.txt) & echo started > started; wait`;
    const child = spawn(process.execPath, [cli, 'leak-check', '--watch', 'home', '--', 'sh', '-c', command], { cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (!existsSync(path.join(root, 'started'))) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
    expect(stdout).toMatch(/was killed by SIGTERM; clean/);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(existsSync(path.join(watched, 'late.txt'))).toBe(false);
  });

  it('allows changes matching --allow, dot files included, and lists them as allowed', () => {
    const script = 'const fs = require("fs"); fs.mkdirSync("home/.cache"); fs.writeFileSync("home/.cache/x.log", "abc"); fs.writeFileSync("home/old.txt", "changed")';
    const r = leakCheck(['--watch', 'home', '--allow', '**/*.log', '--allow', 'old.txt'], script);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'home: before 2 files, 11 bytes; after 3 files, 18 bytes\n' +
        '  allowed  .cache/x.log (added, 3 bytes)\n' +
        '  allowed  old.txt (changed, 7 bytes)\n' +
        'leak-check: clean: nothing added or changed outside --allow in 1 watched dir (2 allowed)\n',
    );
  });

  it('counts a watched dir that does not exist as empty, so creating it leaks', () => {
    const r = leakCheck(['--watch', 'home', '--watch', 'later'], 'require("fs").mkdirSync("later")');
    expect(r.code).toBe(1);
    expect(existsSync(path.join(root, 'later'))).toBe(true);
    expect(r.stdout).toContain('later: before missing; after 0 files, 0 bytes\n  created  (the watched dir itself, left behind empty)\n');
    expect(r.stdout).toContain('leaked: 0 added, 0 changed outside --allow, 1 watched dir created and left empty, in 1 of 2 watched dirs');
  });

  it('expands ~ in --watch to the home dir', () => {
    const r = leakCheck(['--watch', '~/fresh'], 'require("fs").mkdirSync("home/fresh/sub", { recursive: true })', { HOME: watched });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('~/fresh: before missing; after 0 files, 0 bytes\n  added    sub/ (0 bytes)\n');
  });

  it('reports a removal without failing', () => {
    const r = leakCheck(['--watch', 'home'], 'require("fs").rmSync("home/tasks", { recursive: true })');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'home: before 2 files, 11 bytes; after 1 file, 3 bytes\n' +
        '  removed  tasks/a.output (8 bytes)\n' +
        'leak-check: clean: nothing added or changed outside --allow in 1 watched dir (1 removed)\n',
    );
  });

  it('prints one JSON document and sends the child stdout to stderr under --format json', () => {
    const script = 'const fs = require("fs"); console.log("child says hi"); fs.writeFileSync("home/tasks/new.output", "12345"); fs.writeFileSync("home/tasks/a.output", "rewritten\\n"); fs.rmSync("home/old.txt"); fs.writeFileSync("home/ok.tmp", "1")';
    const r = leakCheck(['--watch', 'home', '--allow', '*.tmp', '--format', 'json'], script);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('child says hi\n');
    expect(JSON.parse(r.stdout)).toEqual({
      version: 1,
      command: [process.execPath, '-e', script],
      exitCode: 1,
      commandExitCode: 0,
      signal: null,
      watched: [
        {
          dir: 'home',
          created: false,
          notDirectory: null,
          leaked: true,
          before: { exists: true, files: 2, bytes: 11 },
          after: { exists: true, files: 3, bytes: 16 },
          added: [{ path: 'tasks/new.output', bytes: 5 }],
          changed: [{ path: 'tasks/a.output', bytesBefore: 8, bytesAfter: 10 }],
          unreadable: [],
          removed: [{ path: 'old.txt', bytes: 3 }],
          allowed: [{ path: 'ok.tmp', change: 'added', bytes: 1 }],
        },
      ],
      summary: { dirs: 1, leakedDirs: 1, added: 1, changed: 1, removed: 1, allowed: 1, leaked: true },
    });
  });

  it('exits 2 with a clear message when the command cannot be started', () => {
    const result = spawnSync(process.execPath, [cli, 'leak-check', '--watch', watched, '--', 'no-such-command-xyz'], {
      env: { ...process.env, NO_COLOR: '1', TZ: 'UTC' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("trajaudit: cannot run 'no-such-command-xyz': command not found; check the name and PATH\n");
  });

  it('a file the command leaves where a watched dir is missing is a leak; its own failure code passes through', () => {
    const r = leakCheck(['--watch', 'home', '--watch', 'later'], 'require("fs").writeFileSync("later", "x\\n"); process.exit(5)');
    expect(r).toEqual({
      code: 5,
      stderr: '',
      stdout:
        'home: before 2 files, 11 bytes; after 2 files, 11 bytes\n' +
        'later: before missing; after a file of 2 bytes, not a directory\n' +
        '  created  (a file of 2 bytes at the watched path itself, where a directory belongs)\n' +
        `leak-check: command failed: ${process.execPath} -e 'require("fs").writeFileSync("later", "x\\n"); process.exit(5)' exited 5; ` +
        'leaked: 0 added, 0 changed outside --allow, 1 non-directory left where a watched dir belongs, in 1 of 2 watched dirs\n',
    });
  });

  it('a watched dir the command replaces with a file is a leak (exit 1), its old files removed, in JSON too', () => {
    const script = 'const fs = require("fs"); fs.rmSync("home/tasks", { recursive: true }); fs.writeFileSync("home/tasks", "x\\n")';
    const text = leakCheck(['--watch', 'home/tasks'], script);
    expect(text).toEqual({
      code: 1,
      stderr: '',
      stdout:
        'home/tasks: before 1 file, 8 bytes; after a file of 2 bytes, not a directory\n' +
        '  removed  a.output (8 bytes)\n' +
        '  replaced (the watched dir itself, by a file of 2 bytes)\n' +
        'leak-check: leaked: 0 added, 0 changed outside --allow, 1 non-directory left where a watched dir belongs, in 1 of 1 watched dir (1 removed)\n',
    });
    rmSync(path.join(watched, 'tasks'));
    mkdirSync(path.join(watched, 'tasks'));
    writeFileSync(path.join(watched, 'tasks', 'a.output'), 'keep me\n');
    const json = leakCheck(['--watch', 'home/tasks', '--format', 'json'], script);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).watched).toEqual([{
      dir: 'home/tasks',
      created: false,
      notDirectory: { kind: 'file', bytes: 2 },
      leaked: true,
      before: { exists: true, files: 1, bytes: 8 },
      after: { exists: false, files: 0, bytes: 0 },
      added: [],
      changed: [],
      unreadable: [],
      removed: [{ path: 'a.output', bytes: 8 }],
      allowed: [],
    }]);
  });

  it('a link to nothing the command leaves at a missing watched path is a leak, not "missing" and clean', () => {
    const r = leakCheck(['--watch', 'later', '--format', 'json'], 'require("fs").symlinkSync("nowhere", "later")');
    expect(r.code).toBe(1);
    const dir = JSON.parse(r.stdout).watched[0];
    expect([dir.leaked, dir.notDirectory, dir.after.exists]).toEqual([true, { kind: 'link', bytes: 7 }, false]);
    rmSync(path.join(root, 'later'));
    expect(leakCheck(['--watch', 'later'], 'require("fs").symlinkSync("nowhere", "later")').stdout).toBe(
      'later: before missing; after a link to nothing, not a directory\n' +
      '  created  (a link to nothing at the watched path itself, where a directory belongs)\n' +
      'leak-check: leaked: 0 added, 0 changed outside --allow, 1 non-directory left where a watched dir belongs, in 1 of 1 watched dir\n',
    );
  });

  it('a watched dir (or a link to one) the command swaps for a link to another directory is replaced: a leak', () => {
    mkdirSync(path.join(root, 'empty'));
    // The command's writes go to the dir it moved away; the link makes the watched path look clean.
    const script = 'const fs = require("fs"); fs.renameSync("home/tasks", "moved"); fs.writeFileSync("moved/leak.txt", "x"); fs.symlinkSync("../empty", "home/tasks")';
    const r = leakCheck(['--watch', 'home/tasks'], script);
    expect([r.code, r.stderr]).toEqual([1, '']);
    expect(r.stdout.split('\n').slice(0, -2)).toEqual([
      'home/tasks: before 1 file, 8 bytes; after a link to another directory, not a directory',
      '  removed  a.output (8 bytes)',
      '  replaced (the watched dir itself, by a link to another directory)',
    ]);
    // A --watch link pointed elsewhere is replaced too, in JSON as kind "dirLink"; one left as it was is not.
    const json = leakCheck(['--watch', 'home/tasks', '--format', 'json'], 'const fs = require("fs"); fs.rmSync("home/tasks"); fs.symlinkSync("../moved", "home/tasks")');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).watched[0]).toMatchObject({ leaked: true, notDirectory: { kind: 'dirLink', bytes: '../moved'.length }, after: { exists: false } });
    expect(leakCheck(['--watch', 'home/tasks'], '').code).toBe(0);
  });

  it('sees files and dirs whose names are not UTF-8, each under its own name, shown with \\xHH escapes', () => {
    // Names built from latin1 strings are the bytes as written: \xff and \xfe are never UTF-8.
    const script = 'const fs = require("fs"); const b = (s) => Buffer.from(s, "latin1"); ' +
      'fs.mkdirSync(b("home/cache\\xff")); fs.writeFileSync(b("home/cache\\xff/leaked.txt"), "secret"); ' +
      'fs.writeFileSync(b("home/f\\xfe"), "x"); fs.writeFileSync(b("home/f\\xfd"), "y"); fs.writeFileSync(b("home/caf\\xe9\\\\x.tmp"), "z")';
    const r = leakCheck(['--watch', 'home', '--allow', '*.tmp'], script);
    expect([r.code, r.stderr]).toEqual([1, '']);
    // The verdict line is left to the tests of its wording.
    expect(r.stdout.split('\n').slice(0, -2)).toEqual([
      'home: before 2 files, 11 bytes; after 6 files, 20 bytes',
      '  added    cache\\xFF/leaked.txt (6 bytes)',
      '  added    f\\xFD (1 byte)',
      '  added    f\\xFE (1 byte)',
      '  allowed  caf\\xE9\\\\x.tmp (added, 1 byte)',
    ]);
    expect(r.stdout).toMatch(/\nleak-check: leaked: 3 added, 0 changed /);
    // A change inside a directory so named is seen too, and JSON shows the same escapes.
    const json = leakCheck(['--watch', 'home', '--format', 'json'], 'require("fs").writeFileSync(Buffer.from("home/cache\\xff/leaked.txt", "latin1"), "more secret")');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).watched[0].changed).toEqual([{ path: 'cache\\xFF/leaked.txt', bytesBefore: 6, bytesAfter: 11 }]);
  });

  // Permissions bind root only through another user: as root the CLI runs as nobody when it can.
  const NOBODY = 65534;
  const isRoot = process.getuid?.() === 0;
  const asUser = isRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'] : [];
  const canDropRoot = !isRoot || spawnSync(asUser[0], [...asUser.slice(1), process.execPath, '--version']).status === 0;
  function leakCheckAsUser(args: string[], script: string) {
    if (isRoot) for (const file of [root, ...readdirSync(root, { recursive: true }).map((f) => path.join(root, String(f)))]) chownSync(file, NOBODY, NOBODY);
    const [command, ...rest] = [...asUser, process.execPath, cli, 'leak-check', ...args, '--', process.execPath, '-e', script];
    const result = spawnSync(command, rest, { cwd: root, env: { ...process.env, NO_COLOR: '1', TZ: 'UTC' }, encoding: 'utf8' });
    return { stdout: result.stdout, stderr: result.stderr, code: result.status };
  }

  it.skipIf(!canDropRoot)('a watched subdir the command makes unreadable fails the run (exit 1), and its old files are not "removed"', () => {
    try {
      // mode 000: the dir cannot be listed; mode 444: listed, but what it lists cannot be looked at.
      for (const mode of ['0o000', '0o444']) {
        chmodSync(path.join(watched, 'tasks'), 0o755);
        rmSync(path.join(watched, 'tasks', 'leak.output'), { force: true });
        const r = leakCheckAsUser(['--watch', 'home'], `const fs = require("fs"); fs.writeFileSync("home/tasks/leak.output", "x"); fs.chmodSync("home/tasks", ${mode})`);
        expect([r.code, r.stderr]).toEqual([1, 'trajaudit: --watch home: cannot list tasks: EACCES; changes inside it are not seen\n']);
        expect(r.stdout.split('\n').slice(0, -2)).toEqual([
          'home: before 2 files, 11 bytes; after 1 file, 3 bytes',
          '  unreadable tasks/ (listed before the command, not after: EACCES; what it holds now is not seen)',
        ]);
        expect(r.stdout).toMatch(/\nleak-check: leaked: 0 added, 0 changed outside --allow, 1 dir no longer readable, in 1 of 1 /);
      }
      chmodSync(path.join(watched, 'tasks'), 0o755);
      const json = leakCheckAsUser(['--watch', 'home', '--format', 'json'], 'require("fs").chmodSync("home/tasks", 0)');
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout).watched[0]).toMatchObject({ leaked: true, unreadable: [{ path: 'tasks/', error: 'EACCES' }], removed: [] });
      // One that could not be listed before either is a warning, as it was: nothing seen changed.
      const still = leakCheckAsUser(['--watch', 'home'], '');
      expect([still.code, still.stdout.includes('unreadable')]).toEqual([0, false]);
    } finally {
      chmodSync(path.join(watched, 'tasks'), 0o755);
    }
  });

  it('exits 2 when a watched path is a file', () => {
    const r = leakCheck(['--watch', 'home/old.txt'], '');
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'trajaudit: --watch home/old.txt: not a directory; pass the directory to watch\n' });
  });
});
