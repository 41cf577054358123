import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';

// TypeScript's line map ends a line at U+2028 and U+2029 too, even in a comment or a string; git,
// grep and GitHub's file view do not, so each one above a finding put its annotation a line late.
let cleanup = () => {};
afterEach(() => cleanup());

describe('check counts lines as git does: LF, CRLF and a lone CR end one, U+2028 and U+2029 do not', () => {
  it('a pasted U+2028 in a comment and a U+2029 in a string leave the line and column where git has them', async () => {
    const t = tempDir('trajaudit-line-separators-');
    cleanup = t.cleanup;
    fs.mkdirSync(path.join(t.dir, 'src'));
    fs.writeFileSync(
      path.join(t.dir, 'src/a.ts'),
      '// pasted prompt: a\u2028b\u2029c\r\nconst note = "x\u2029y";\rdeclare const c: any;\nexport const n = note; c.sendMessageStream();\n',
    );
    expect(await runCli(['check', '.', '--format', 'github'], { cwd: t.dir })).toEqual({
      stdout:
        '::error file=src/a.ts,line=4,col=26,title=trajaudit direct-provider-call::direct call to sendMessageStream() bypasses the resilience funnel (allowed only in src/llm/**, packages/*/src/llm/**)\n' +
        'trajaudit: 1 new, 0 baselined, 0 allowed, 0 info, 0 stale (1 file scanned, 1 parsed)\n',
      stderr: '',
      code: 1,
    });
  });
});
