// Where `report --out` writes: never inside the data it reads.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, runCli, tempDir } from '../helpers/run-cli.js';

const WEEK_B = ['--since', '2026-08-17', '--until', '2026-08-24'];
const { dir, cleanup } = tempDir('trajaudit-report-out-');
afterAll(cleanup);

/** Every file under `root` with a digest of its bytes, to show that nothing in it changed. */
function contents(root: string): Record<string, string> {
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.lstatSync(path.join(root, f)).isFile());
  return Object.fromEntries(files.sort().map((f) => [f, createHash('sha1').update(fs.readFileSync(path.join(root, f))).digest('hex')]));
}

describe('report --out', () => {
  const home = path.join(dir, 'home');
  fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
  const before = contents(home);

  it('inside a named input (also through a link) is refused before anything is written, exit 2, as a --db there is', () => {
    const summary = path.join(home, 'trajectories', 'sessions', '3b9f02d6', 'session-summary.json');
    expect(runCli(['report', home, ...WEEK_B, '--out', summary])).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: --out ${summary} is inside the input ${home}, and trajaudit never writes inside the data it reads; pass a --out path outside ${home}\n`,
    });
    fs.symlinkSync('home', path.join(dir, 'linked'));
    const sessions = path.join(dir, 'linked', 'trajectories', 'sessions');
    const html = path.join(home, 'trajectories', 'sessions', 'report.html');
    expect(runCli(['report', sessions, ...WEEK_B, '--out', html])).toMatchObject({ code: 2, stdout: '' });
    expect(contents(home)).toEqual(before);
  });

  it('whose chart file would go through a link into a named input is refused before the report is written', () => {
    const out = path.join(dir, 'charts');
    fs.mkdirSync(out);
    const summary = path.join(home, 'trajectories', 'sessions', '3b9f02d6', 'session-summary.json');
    fs.symlinkSync(summary, path.join(out, 'weekly-subagent-outcomes.svg'));
    const run = runCli(['report', home, ...WEEK_B, '--out', path.join(out, 'weekly.md')]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `trajaudit: --out ${path.join(out, 'weekly-subagent-outcomes.svg')} is inside the input ${home}, and trajaudit never writes inside the data it reads; pass a --out path outside ${home}\n`,
    });
    expect(fs.readdirSync(out)).toEqual(['weekly-subagent-outcomes.svg']);
    expect(contents(home)).toEqual(before);
  });
});
