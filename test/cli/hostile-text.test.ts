// Names and values in the inputs come from an agent's tools: an escape sequence in them must not
// reach the terminal through a message on stderr or a text report (it could retitle the window,
// set the clipboard through OSC 52, or erase the line and print another). They are shown as the
// tables show them: \u001b and the like.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../helpers/run-cli.js';

const work = tempDir();
afterAll(work.cleanup);
const TITLE = '\u001b]0;owned\u0007\r\u001b[2K';
const SHOWN = '\\u001b]0;owned\\u0007\\u000d\\u001b[2K';
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('text that an agent wrote, on stderr and in text reports', () => {
  it('a message quoting an event name shows its escape sequence, not the sequence itself', async () => {
    const session = path.join(work.dir, 'home', 'trajectories/sessions/20260818-100000-0000e5c1');
    fs.mkdirSync(session, { recursive: true });
    fs.writeFileSync(path.join(session, 'events.jsonl'), `${JSON.stringify({ event: `x${TITLE}y`, timestamp: '2026-08-18T10:00:00.000Z', data: {} })}\n`);
    const run = await runCli(['timeline', '0000e5c1', path.join(work.dir, 'home'), '--event', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`event names x${SHOWN}y`);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });

  it('leak-check names a leaked file by its escapes', () => {
    const watched = path.join(work.dir, 'watched');
    fs.mkdirSync(watched);
    const name = `a${TITLE}nothing leaked`;
    const run = spawnSync(process.execPath, [CLI, 'leak-check', '--watch', watched, '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(path.join(watched, name))}, '')`], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`  added    a${SHOWN}nothing leaked (0 bytes)\n`);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
  });

  it('check names a source file by its escapes, a newline in it too', async () => {
    const repo = path.join(work.dir, 'repo');
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src', `evil${TITLE}\n.ts`), 'export function f(p: any) { return p.sendMessageStream({}); }\n');
    const run = await runCli(['check', repo, '--format', 'text']);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n')[0]).toBe(`src/evil${SHOWN}\\u000a.ts`);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
  });
});

describe('sql', () => {
  it('does not install or load a DuckDB extension a statement asks for (httpfs for s3://)', async () => {
    const home = path.join(work.dir, 'user-home');
    fs.mkdirSync(home);
    const run = await runCli(['sql', "SELECT * FROM read_csv('s3://bucket/x.csv')", path.join(import.meta.dirname, '../../fixtures/home')], { env: { HOME: home } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^trajaudit: the SQL statement failed: .*httpfs/);
    expect(fs.readdirSync(home)).toEqual([]);
  });
});

describe('invisible characters in table and md cells', () => {
  it('are shown as escapes (soft hyphen, invisible times, a Hangul filler), emoji joiners and selectors stay', async () => {
    const home = path.join(import.meta.dirname, '../../fixtures/home');
    const statement = "SELECT 'ret' || chr(173) || 'ry' AS a, 'ret' || chr(8290) || 'ry' AS b, chr(12644) AS c, '👩' || chr(8205) || '💻' || ' ❤' || chr(65039) AS d";
    expect((await runCli(['sql', statement, home, '--format', 'md'])).stdout).toBe('| a | b | c | d |\n| --- | --- | --- | --- |\n| ret\\u00adry | ret\\u2062ry | \\u3164 | 👩\u200d💻 ❤\ufe0f |\n');
  });

  it('so are noncharacters and interlinear annotation marks, in a table too', async () => {
    const home = path.join(import.meta.dirname, '../../fixtures/home');
    const statement = "SELECT 'a' || chr(65534) || chr(65535) || chr(64976) || 'b' AS a, chr(65529) || 'hidden' || chr(65531) AS b, chr(65532) || chr(65533) AS c";
    expect((await runCli(['sql', statement, home, '--format', 'md'])).stdout).toBe('| a | b | c |\n| --- | --- | --- |\n| a\\ufffe\\uffff\\ufdd0b | \\ufff9hidden\\ufffb | \ufffc\ufffd |\n');
    expect((await runCli(['sql', statement, home])).stdout).toContain('│ a\\ufffe\\uffff\\ufdd0b │ \\ufff9hidden\\ufffb │');
  });
});
