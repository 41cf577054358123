import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI, FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

let work: ReturnType<typeof tempDir>;
beforeEach(() => {
  work = tempDir();
});
afterEach(() => work.cleanup());

describe('check: the baseline and config files', () => {
  // Written in place, a baseline that did not fit (a full disk, a file-size limit) was cut mid-entry
  // and its old entries lost; it is written beside and renamed, so the committed one stays whole.
  it('--update-baseline that cannot write the whole file leaves the old baseline as it was (exit 2)', async () => {
    const src = path.join(work.dir, 'src');
    fs.mkdirSync(src);
    for (let i = 1; i <= 60; i++) {
      fs.writeFileSync(path.join(src, `file${i}.ts`), `export async function f${i}(client: any) {\n  await client.sendMessageStream({ n: ${i} });\n}\n`);
    }
    expect((await runCli(['check', work.dir, '--update-baseline', '--allow-additions'])).code).toBe(0);
    const baseline = path.join(work.dir, 'trajaudit-baseline.json');
    const full = fs.readFileSync(baseline, 'utf8');
    expect(full.length).toBeGreaterThan(8192);
    const old = JSON.stringify({ version: 1, entries: JSON.parse(full).entries.slice(0, 3) });
    fs.writeFileSync(baseline, old);

    // bash's `ulimit -f` counts KiB: the new baseline (8.5 KB) does not fit in 4.
    const run = spawnSync('bash', ['-c', 'ulimit -f 4; exec "$@"', 'bash', process.execPath, CLI, 'check', work.dir, '--update-baseline', '--allow-additions'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect([run.status, run.stderr]).toEqual([2, `trajaudit: cannot write baseline ${baseline}: EFBIG: file too large, write; the baseline is left as it was\n`]);
    expect(fs.readFileSync(baseline, 'utf8')).toBe(old);
    expect(fs.readdirSync(work.dir).sort()).toEqual(['src', 'trajaudit-baseline.json']);
  });

  // Notepad and Visual Studio save one; trajaudit skips it in every input file, tsc in tsconfig.json.
  it('a UTF-8 byte order mark at the start of trajaudit.config.json or trajaudit-baseline.json is skipped', async () => {
    fs.cpSync(path.join(FIXTURES, 'check-baseline'), work.dir, { recursive: true });
    const baseline = path.join(work.dir, 'trajaudit-baseline.json');
    const plain = fs.readFileSync(baseline, 'utf8');
    fs.writeFileSync(baseline, `\uFEFF${plain}`);
    fs.writeFileSync(path.join(work.dir, 'trajaudit.config.json'), '\uFEFF{ "rules": { "stateful-construction": { "off": true } } }');
    const run = await runCli(['check', work.dir]);
    expect([run.code, run.stderr, run.stdout.split('\n').at(-2)]).toEqual([0, '', '0 new, 4 baselined, 0 allowed, 0 info, 0 stale (3 files scanned, 3 parsed)']);

    // The rewrite carries no mark.
    expect((await runCli(['check', work.dir, '--update-baseline'])).code).toBe(0);
    expect(fs.readFileSync(baseline, 'utf8')).toBe(plain);
  });

  // The rest of the baseline is validated strictly; an entry of no rule (a typo, a rule renamed
  // since) was neither matched nor stale, even under --strict, and --update-baseline kept it.
  it('an entry whose rule trajaudit does not have exits 2, naming the file, its line, the entry, the rule and the known ones', async () => {
    fs.mkdirSync(path.join(work.dir, 'src'));
    fs.writeFileSync(path.join(work.dir, 'src/a.ts'), 'export const x = 1;\n');
    const baseline = path.join(work.dir, 'trajaudit-baseline.json');
    const text = [
      '{',
      '  "version": 1,',
      '  "entries": [',
      '    {"rule":"dead-catch","file":"src/a.ts","scope":"<module>","anchor":"s.next","hash":"0123456789ab","count":1},',
      '    {"rule":"direct-provider-cal","file":"src/a.ts","scope":"<module>","anchor":"c.sendMessageStream","hash":"0123456789ab","count":1}',
      '  ]',
      '}',
      '',
    ].join('\n');
    fs.writeFileSync(baseline, text);
    const refused = {
      stdout: '',
      stderr:
        `trajaudit: ${baseline}:5: entries[1] has "rule": "direct-provider-cal", which is no trajaudit rule ` +
        '(did you mean "direct-provider-call"? known rules: direct-provider-call, stateful-construction, dead-catch); fix its "rule", or remove the entry\n',
      code: 2,
    };
    expect(await runCli(['check', work.dir, '--strict'])).toEqual(refused);
    expect(await runCli(['check', work.dir, '--update-baseline'])).toEqual(refused);
    expect(fs.readFileSync(baseline, 'utf8')).toBe(text);

    // A known rule that is off, or left out by --rule, keeps its entries.
    fs.writeFileSync(baseline, text.replace('direct-provider-cal"', 'direct-provider-call"'));
    fs.writeFileSync(path.join(work.dir, 'trajaudit.config.json'), '{ "rules": { "dead-catch": { "off": true } } }\n');
    expect(await runCli(['check', work.dir, '--rule', 'stateful-construction', '--strict'])).toEqual({
      stdout: '0 new, 0 baselined, 0 allowed, 0 info, 0 stale (1 file scanned, 0 parsed)\n',
      stderr: '',
      code: 0,
    });
  });

  it('an entry the schema refuses exits 2 with the file, the entry\'s line, what is wrong with it and what to do', async () => {
    fs.mkdirSync(path.join(work.dir, 'src'));
    fs.writeFileSync(path.join(work.dir, 'src/a.ts'), 'export const x = 1;\n');
    const baseline = path.join(work.dir, 'trajaudit-baseline.json');
    const entry = '{"rule":"direct-provider-call","file":"src/a.ts","scope":"f","anchor":"c.sendMessageStream","hash":"0123456789ab","count":1}';
    const write = (second: string, version = 1) => fs.writeFileSync(baseline, `{\n  "version": ${version},\n  "entries": [\n    ${entry},\n    ${second}\n  ]\n}\n`);
    const refused = (line: number, what: string) => ({
      stdout: '',
      stderr: `trajaudit: ${baseline}:${line}: not a trajaudit baseline: ${what}; fix it, or delete the file and write it anew with trajaudit check --update-baseline --allow-additions\n`,
      code: 2,
    });
    write(entry.replace('"count":1', '"count":0'));
    expect(await runCli(['check', work.dir])).toEqual(refused(5, 'invalid value at "entries[1].count": Too small: expected number to be >0'));
    write(entry.replace('"count":1', '"count":1,"note":"x"'));
    expect(await runCli(['check', work.dir])).toEqual(refused(5, 'unknown key "entries[1].note"; remove it or check the spelling (an entry holds rule, file, scope, anchor, hash and count)'));
    write(entry, 2);
    expect(await runCli(['check', work.dir])).toEqual(refused(2, 'invalid value at "version": Invalid input: expected 1'));
  });
});
