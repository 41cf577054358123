// File names in a checked repository are data: in `check --format github` an ESC sequence (which
// can retitle the window or clear the screen of whoever reads the CI log) or U+202E (which makes
// a name read backwards) is shown escaped, as in the text format, in the annotations of findings
// and in the `::notice` of a stale baseline entry alike.
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileTree } from '../helpers/run-cli.js';
import { runCli } from '../checks/run-cli.js';

let cleanup = () => {};
afterEach(() => cleanup());

const call = 'declare const p: any;\nexport const f = () => p.sendMessageStream(1);\n';
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J';

describe('check --format github with hostile file names', () => {
  it('escapes control characters and bidirectional overrides in findings and stale entries', async () => {
    const t = fileTree('trajaudit-github-names-', { '.git/HEAD': 'ref: refs/heads/main\n', [`src/${TITLE}.ts`]: call });
    cleanup = t.cleanup;
    expect((await runCli(['check', '.', '--update-baseline', '--allow-additions'], { cwd: t.dir })).code).toBe(0);
    // The baselined call moves to a file named to clear the screen: a new finding there, a stale entry for the old name.
    renameSync(path.join(t.dir, `src/${TITLE}.ts`), path.join(t.dir, `src/${CLEAR}.ts`));
    writeFileSync(path.join(t.dir, `src/${CLEAR}.ts`), call.replace('(1)', '(2)'));
    writeFileSync(path.join(t.dir, 'src/\u202egnp.ts'), call.replace('(1)', '(3)'));
    const run = await runCli(['check', '.', '--format', 'github'], { cwd: t.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^::error file=src\/\\u001b\[2J\.ts,line=2,col=\d+,title=trajaudit direct-provider-call::/);
    expect(lines[1]).toMatch(/^::error file=src\/\\u202egnp\.ts,line=2,col=\d+,title=trajaudit direct-provider-call::/);
    expect(lines[2]).toMatch(/^::notice file=trajaudit-baseline\.json,title=trajaudit stale baseline entry::stale baseline entry \(fixed or gone\): direct-provider-call src\/\\u001b\]0;pwned\\u0007\.ts /);
    expect(lines).toHaveLength(4);
  });
});
