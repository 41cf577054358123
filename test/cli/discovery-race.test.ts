import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, REPO, runBinary, tempDir } from '../helpers/run-cli.js';

// sid-code prunes and creates sessions while trajaudit discovers a home: an entry listed a moment
// ago may be gone when it is resolved or opened. The preload makes every "vanished-*" entry behave
// so, deterministically.
const preload = ['--import', path.join(REPO, 'test/helpers/vanish-preload.mjs')];

describe('discovery: an entry removed between listing and reading', () => {
  it('is left out, with nothing else lost and no internal error', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const home = path.join(dir, 'home');
      fs.cpSync(path.join(FIXTURES, 'home'), home, { recursive: true });
      const sessions = path.join(home, 'trajectories', 'sessions');
      const first = fs.readdirSync(sessions).sort()[0];
      fs.mkdirSync(path.join(sessions, 'vanished-session'));
      fs.writeFileSync(path.join(sessions, 'vanished-session', 'events.jsonl'), '{"event":"SessionStart","session_id":"v","timestamp":"2026-08-15T01:15:01.000Z","data":{}}\n');
      fs.writeFileSync(path.join(sessions, first, 'vanished-notes.txt'), 'gone\n');
      fs.writeFileSync(path.join(home, 'tasks', 'vanished-a12345678.output'), 'x');
      const run = runBinary(['sql', 'SELECT count(*) AS n FROM events', home, '--format', 'csv'], { nodeArgs: preload });
      expect([run.code, run.stdout]).toEqual([0, 'n\r\n413\r\n']);
      const skipped = runBinary(['sources', home, '--section', 'skipped', '--format', 'csv'], { nodeArgs: preload });
      expect(skipped.code).toBe(0);
      expect(skipped.stdout).not.toContain('vanished-');
      expect(runBinary(['sql', "SELECT count(*) AS n FROM sessions WHERE session_id LIKE 'vanished-%'", home, '--format', 'csv'], { nodeArgs: preload }).stdout).toBe('n\r\n0\r\n');
    } finally {
      cleanup();
    }
  });
});
